import { Suspense, useEffect, useMemo, useRef, useState, type ComponentType, type RefObject } from 'react';
import { Button, Dialog, DialogHandOver, LoadBoundary, StateMessage, useLazyPart } from '../../../shared/ui';

type Load = () => Promise<{ default: ComponentType }>;
const noop = () => undefined;

export type LazyDialogPartProps = {
  load: Load;
  /** The dialog's title while its code arrives or when it could not be downloaded. */
  title: string;
  failure: string;
  /** How many times it has been asked for: the failure, once closed, shows again at the next ask. */
  asks: number;
};

/**
 * A dialog whose code (its models with it) is a chunk of its own, loaded when it is first asked for: a
 * dialog with its title says Loading… while the code arrives, and says it could not be loaded, with Try
 * again and Close (or Escape, or a click outside), if it does not. The part answers the ask that loaded it
 * once it is there. The dialog that replaces the Loading… one opens in its place without a second entrance
 * (DialogHandOver).
 */
export function LazyDialogPart({ load, title, failure, asks }: LazyDialogPartProps) {
  const { Part, forget } = useLazyPart(load);
  const [failureClosedAt, setFailureClosedAt] = useState(0);
  const loadingShown = useRef(false);
  const handOver = useMemo(
    () => ({
      take: () => {
        const shown = loadingShown.current;
        loadingShown.current = false;
        return shown;
      },
    }),
    [],
  );
  return (
    <DialogHandOver.Provider value={handOver}>
      <LoadBoundary
        onRetry={forget}
        failure={(retry) => (
          <Dialog
            open={failureClosedAt !== asks}
            onClose={() => setFailureClosedAt(asks)}
            title={title}
            closeOnBackdrop
            actions={
              <Button variant="secondary" onClick={() => setFailureClosedAt(asks)}>
                Close
              </Button>
            }
          >
            <StateMessage status="failed" onRetry={retry}>
              {failure}
            </StateMessage>
          </Dialog>
        )}
      >
        <Suspense fallback={<LoadingDialog title={title} shown={loadingShown} />}>
          <Part />
        </Suspense>
      </LoadBoundary>
    </DialogHandOver.Provider>
  );
}

/**
 * The dialog shown while the part's code arrives; it opens with the entrance, whatever it replaces. It hands
 * over (the part's dialog then opens without one) only once it was on screen: its entrance started. One
 * replaced before its first frame was never seen, and the part's dialog makes the entrance instead.
 */
function LoadingDialog({ title, shown }: { title: string; shown: RefObject<boolean> }) {
  const marker = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const dialog = marker.current?.closest('dialog');
    if (!dialog) return;
    const started = (event?: AnimationEvent) => {
      if (!event || event.target === dialog) shown.current = true;
    };
    if (dialog.getAnimations().some((animation) => animation.startTime !== null)) started();
    dialog.addEventListener('animationstart', started);
    return () => dialog.removeEventListener('animationstart', started);
  }, [shown]);
  return (
    <DialogHandOver.Provider value={null}>
      <Dialog open onClose={noop} title={title}>
        <StateMessage status="loading">Loading…</StateMessage>
        <span ref={marker} hidden />
      </Dialog>
    </DialogHandOver.Provider>
  );
}
