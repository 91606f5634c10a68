import { createContext, useContext, useEffect, useId, useRef, type CSSProperties, type ReactNode } from 'react';
import styles from './dialog.module.css';

export type DialogProps = {
  open: boolean;
  /** Called for the Escape key and for every other way the dialog closes. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** The buttons at the bottom right. */
  actions?: ReactNode;
  icon?: ReactNode;
  tone?: 'default' | 'danger';
  /** Width in px on wide screens; the dialog never overflows a narrow one. */
  width?: number;
  /** A click outside the dialog closes it too. */
  closeOnBackdrop?: boolean;
};

/**
 * Given by a place where a dialog takes over from another one already on screen (a lazily loaded part
 * replacing its Loading… dialog): the first dialog to open under it after that skips the entrance, so a
 * person sees one dialog whose content arrives, not a second one fading in where the first just was.
 * `take` answers whether a dialog was on screen, once.
 */
export const DialogHandOver = createContext<{ take: () => boolean } | null>(null);

/**
 * A modal dialog on the native <dialog> element: focus is kept inside while it is open and given back
 * afterwards, the page behind is inert, Escape closes it.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  actions,
  icon,
  tone = 'default',
  width = 480,
  closeOnBackdrop = false,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const handOver = useContext(DialogHandOver);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // Set before showModal, so the entrance (the CSS animation on [open]) never starts when it is skipped.
      if (handOver?.take()) dialog.dataset.entrance = 'none';
      else delete dialog.dataset.entrance;
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, handOver]);

  // A close the dialog itself performs (after `open` became false) is not reported back.
  const requestClose = () => {
    if (open) onClose();
  };

  return (
    <dialog
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      className={[styles.dialog, tone === 'danger' ? styles.danger : ''].filter(Boolean).join(' ')}
      style={{ '--dialog-width': `${width}px` } as CSSProperties}
      onCancel={(event) => {
        // React passes a nested dialog's (a confirm question's) cancel and close up the component tree:
        // only this dialog's own events close it.
        if (event.target !== event.currentTarget) return;
        // Escape: let React state close the dialog rather than the browser.
        event.preventDefault();
        requestClose();
      }}
      onClose={(event) => {
        if (event.target === event.currentTarget) requestClose();
      }}
      onClick={(event) => {
        if (!closeOnBackdrop || event.target !== event.currentTarget) return;
        // The backdrop belongs to the <dialog> element: a click outside its box lands on it.
        const box = event.currentTarget.getBoundingClientRect();
        const inside =
          event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
        if (!inside) requestClose();
      }}
    >
      {open ? (
        <>
          <div className={styles.header}>
            {icon ? <span className={styles.icon}>{icon}</span> : null}
            <h2 id={titleId} className={styles.title}>
              {title}
            </h2>
          </div>
          <div id={bodyId} className={styles.body}>
            {children}
          </div>
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}
