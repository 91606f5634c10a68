import { useEffect } from 'react';

/**
 * For a part loaded on demand (useLazyPart) whose models are made when its chunk is evaluated: the request
 * that downloaded the chunk (a click, an opening, a panel already open) was made before those models existed,
 * so nothing heard it. The part's first showing answers it, once for the page's life; later requests reach
 * the models directly. One per chunk, made at its module's top:
 *
 *   const useFirstShowing = firstShowing();
 *   export default function Part() { const opened = useUnit(partOpened); useFirstShowing(() => opened()); ... }
 *
 * `answer` is the first showing's: what it reads (the form asked for, say) is what was asked before the load.
 */
export function firstShowing(): (answer: () => void) => void {
  let answered = false;
  return function useFirstShowing(answer) {
    useEffect(() => {
      if (answered) return;
      answered = true;
      answer();
      // The first showing only: a later render's `answer` is never wanted.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);
  };
}
