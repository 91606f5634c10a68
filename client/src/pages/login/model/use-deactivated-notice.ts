import { useCallback, useState } from 'react';
import { hasQueryFlag, removeQueryParam } from '../../../shared/lib';

/** `/?showDeactivatedModal=true` opens the Account Deactivated dialog (the server-side 403 path lands here). */
export const DEACTIVATED_FLAG = 'showDeactivatedModal';
export const DEACTIVATED_URL = `/?${DEACTIVATED_FLAG}=true`;

/** Whether the Account Deactivated dialog is open; closing it also drops the URL flag. */
export function useDeactivatedNotice() {
  const [open, setOpen] = useState(() => hasQueryFlag(DEACTIVATED_FLAG));
  const show = useCallback(() => setOpen(true), []);
  const close = useCallback(() => {
    setOpen(false);
    removeQueryParam(DEACTIVATED_FLAG);
  }, []);
  return { open, show, close };
}
