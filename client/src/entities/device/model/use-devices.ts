import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchDevices } from '../api/device-api';
import type { Device } from './device';

export type DevicesState =
  | { status: 'loading' }
  | { status: 'ready'; devices: Device[] }
  | { status: 'failed' };

/** The devices visible to the signed-in user, loaded once (reload() fetches again). */
export function useDevices() {
  const [state, setState] = useState<DevicesState>({ status: 'loading' });
  const pending = useRef<AbortController | null>(null);

  const reload = useCallback(async () => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setState({ status: 'loading' });
    try {
      const devices = await fetchDevices(controller.signal);
      if (!controller.signal.aborted) setState({ status: 'ready', devices });
    } catch {
      if (!controller.signal.aborted) setState({ status: 'failed' });
    }
  }, []);

  useEffect(() => {
    void reload();
    return () => pending.current?.abort();
  }, [reload]);

  return { state, reload };
}
