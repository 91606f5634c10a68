import { lazy, Suspense, useState, type ComponentType } from 'react';
import { Dialog, LoadBoundary, StateMessage } from '../../../shared/ui';

type Load = () => Promise<{ default: ComponentType }>;
const noop = () => undefined;
/** One lazy component per chunk for the page's life (a later showing finds it loaded), a new one after a failed download. */
const parts = new Map<Load, ComponentType>();
function partOf(load: Load) {
  let part = parts.get(load);
  if (!part) parts.set(load, (part = lazy(load)));
  return part;
}

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
 * again, if it does not. The part answers the ask that loaded it once it is there.
 */
export function LazyDialogPart({ load, title, failure, asks }: LazyDialogPartProps) {
  const [, retried] = useState(0);
  const [failureClosedAt, setFailureClosedAt] = useState(0);
  const Part = partOf(load);
  return (
    <LoadBoundary
      onRetry={() => {
        parts.delete(load);
        retried((n) => n + 1);
      }}
      failure={(retry) => (
        <Dialog open={failureClosedAt !== asks} onClose={() => setFailureClosedAt(asks)} title={title}>
          <StateMessage status="failed" onRetry={retry}>
            {failure}
          </StateMessage>
        </Dialog>
      )}
    >
      <Suspense
        fallback={
          <Dialog open onClose={noop} title={title}>
            <StateMessage status="loading">Loading…</StateMessage>
          </Dialog>
        }
      >
        <Part />
      </Suspense>
    </LoadBoundary>
  );
}
