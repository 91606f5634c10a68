import { useUnit } from 'effector-react';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { formControlClass, FormField, invalidProps, Spinner } from '../../../shared/ui';
import { $errors, $form, $suggestions, $suggestStatus, addressTyped, suggestionChosen, suggestionsDismissed } from '../model';
import styles from './device-form.module.css';

/**
 * The address with suggestions (spec section 5: US and AU only), as an ARIA combobox: typing asks for
 * suggestions, arrow keys move through them, Enter or a click chooses one (address and coordinate
 * together), Escape closes the list without closing the dialog. A typed address keeps no coordinate.
 */
export function AddressField() {
  const [form, errors, suggestions, status] = useUnit([$form, $errors, $suggestions, $suggestStatus]);
  const [typed, choose, dismiss] = useUnit([addressTyped, suggestionChosen, suggestionsDismissed]);
  const [active, setActive] = useState(-1);
  const id = useId();
  const listId = useId();
  const errorId = useId();
  const hintId = useId();
  const open = suggestions.length > 0;
  const error = errors.address;

  useEffect(() => setActive(-1), [suggestions]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter' && active >= 0) {
      // Enter chooses the highlighted place instead of submitting the form.
      event.preventDefault();
      choose(suggestions[active]!);
    } else if (event.key === 'Escape') {
      // Closes the list only: the dialog stays open (the dialog listens for the same key).
      event.preventDefault();
      event.stopPropagation();
      dismiss();
    }
  };

  const hint =
    status === 'loading' ? (
      <>
        <Spinner size={14} /> Looking up addresses…
      </>
    ) : status === 'failed' ? (
      'Address suggestions are unavailable right now.'
    ) : status === 'ready' && !open && form.location === null ? (
      'No matching place in the US or Australia: place the pin on the map below, or type its coordinates.'
    ) : form.location ? (
      `Located at ${form.location.lat.toFixed(4)}, ${form.location.lng.toFixed(4)}`
    ) : (
      'Type a town or address, then choose it from the list.'
    );
  const describedBy = [invalidProps(errorId, error)['aria-describedby'], hintId].filter(Boolean).join(' ');

  return (
    <FormField label="Address" htmlFor={id} errorId={errorId} error={error} className={styles.full}>
      <div className={styles.combo}>
        <input
          id={id}
          className={formControlClass}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy}
          value={form.address}
          onChange={(e) => typed(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => open && dismiss()}
        />
        <ul id={listId} role="listbox" aria-label="Address suggestions" className={styles.listbox} hidden={!open}>
          {suggestions.map((s, i) => (
            <li
              key={s.place_id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={styles.option}
              // Keeps focus in the input, so the blur above does not close the list before the click.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(s)}
            >
              {s.description}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className={styles.hint} role="status">
        {hint}
      </p>
    </FormField>
  );
}
