import { plural } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useRef, type PointerEvent } from 'react';
import { CloseIcon } from '../../../shared/ui';
import { $crossTagId, $selectedTagId, $tags, $tagsStatus, tagClicked, tagDeleteClicked, tagLongPressed } from '../model';
import styles from './tags.module.css';

/** Spec section 9: a touch held this long shows the delete cross. */
export const LONG_PRESS_MS = 1000;

/**
 * The saved tags: a click selects one (its devices become the list), a second click goes back to the
 * Temporary Device List. The delete cross shows on the selected tag, and on touch after a 1 s press.
 */
export function TagsList() {
  const [tags, status, selected, cross, click, longPress, remove] = useUnit([
    $tags,
    $tagsStatus,
    $selectedTagId,
    $crossTagId,
    tagClicked,
    tagLongPressed,
    tagDeleteClicked,
  ]);
  const timer = useRef<number | null>(null);
  const pressed = useRef<number | null>(null);
  // The pointer that started the press: only its own up, leave or cancel ends it. On a laptop with a touch
  // screen the mouse is another pointer, and its boundary events (the layout moving under a resting cursor)
  // must not cancel a finger's press.
  const pointer = useRef<number | null>(null);
  const cancel = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    pointer.current = null;
  };
  const end = (event: PointerEvent) => {
    if (event.pointerId === pointer.current) cancel();
  };
  const start = (id: number) => (event: PointerEvent) => {
    if (event.pointerType !== 'touch') return;
    cancel();
    pointer.current = event.pointerId;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      pressed.current = id;
      longPress(id);
    }, LONG_PRESS_MS);
  };
  const onClick = (id: number) => {
    // The click that ends a long press only shows the cross; it does not (de)select.
    if (pressed.current === id) {
      pressed.current = null;
      return;
    }
    click(id);
  };

  if (tags.length === 0)
    return (
      <p className={styles.empty}>
        {status === 'loading' ? 'Loading tags…' : status === 'failed' ? 'The tags could not be loaded.' : 'No saved tags yet.'}
      </p>
    );
  return (
    <ul className={styles.tags} aria-label="Tags" data-testid="tags-list">
      {tags.map((tag) => {
        const showCross = tag.id === selected || tag.id === cross;
        return (
          <li key={tag.id} className={[styles.tag, showCross ? styles.withCross : ''].join(' ')} data-tag={tag.name}>
            <button
              type="button"
              className={styles.tagButton}
              aria-pressed={tag.id === selected}
              title={`${tag.name}: ${plural(tag.deviceSerials.length, 'device')}`}
              onClick={() => onClick(tag.id)}
              onPointerDown={start(tag.id)}
              onPointerUp={end}
              onPointerLeave={end}
              onPointerCancel={end}
              onContextMenu={(e) => e.preventDefault()}
            >
              {tag.name}
            </button>
            {showCross ? (
              <button
                type="button"
                className={styles.cross}
                aria-label={`Delete tag ${tag.name}`}
                title="Delete tag"
                onClick={() => remove(tag.id)}
              >
                <CloseIcon size={14} />
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
