import type { DeviceAnswer } from '@fleet/shared';

/** A device write (pause, config, reset, a cancelled change) answers the device, bare or as `{ device }`. */
export type DeviceWriteAnswer = DeviceAnswer | { device: DeviceAnswer };
export const deviceOfWriteAnswer = (answer: DeviceWriteAnswer): DeviceAnswer => ('device' in answer ? answer.device : answer);
