/** Devices counted by status: the figures a county or site card shows (counted by the server, rollup.ts). */
export type StatusTally = { total: number; online: number; offline: number; warning: number };

export type CountyRow = StatusTally & { id: number; name: string };
