import { lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each part's own props, checked where it is shown
type AnyComponent = ComponentType<any>;
const parts = new Map<() => Promise<{ default: AnyComponent }>, LazyExoticComponent<AnyComponent>>();

/**
 * The component of a chunk loaded on demand (React.lazy), one per `load` for the page's life, so a later
 * showing finds it loaded. `forget` (LoadBoundary's onRetry after a failed download) drops it and renders
 * again: the next showing makes a new one, which downloads anew.
 */
export function useLazyPart<C extends AnyComponent>(
  load: () => Promise<{ default: C }>,
): { Part: LazyExoticComponent<C>; forget: () => void } {
  const [, forgotten] = useState(0);
  let part = parts.get(load);
  if (!part) parts.set(load, (part = lazy(load)));
  return {
    Part: part as LazyExoticComponent<C>,
    forget: () => {
      parts.delete(load);
      forgotten((n) => n + 1);
    },
  };
}
