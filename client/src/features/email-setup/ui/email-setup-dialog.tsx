import { useUnit } from 'effector-react';
import type { FormEvent } from 'react';
import { Button, Dialog, ResultPopup, SwitchButton, TextField } from '../../../shared/ui';
import {
  $busy,
  $canAdd,
  $newEmail,
  $newName,
  $open,
  $result,
  $rows,
  addClicked,
  deleteClicked,
  emailSetupCancelled,
  emailSetupSaved,
  enabledToggled,
  newEmailChanged,
  newNameChanged,
  resultClosed,
} from '../model';
import styles from './email-setup.module.css';

/** Email Setup (spec section 2 popups): add a recipient, the Email List for Report, Cancel and Save. */
export function EmailSetupDialog() {
  const [open, rows, name, email, canAdd, busy, result] = useUnit([$open, $rows, $newName, $newEmail, $canAdd, $busy, $result]);
  const [cancel, save, setName, setEmail, add, toggle, remove, closeResult] = useUnit([
    emailSetupCancelled,
    emailSetupSaved,
    newNameChanged,
    newEmailChanged,
    addClicked,
    enabledToggled,
    deleteClicked,
    resultClosed,
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add();
  };
  return (
    <>
      <Dialog
        open={open}
        onClose={cancel}
        title="Email Setup"
        width={620}
        actions={
          <>
            <Button variant="secondary" onClick={() => cancel()}>
              Cancel
            </Button>
            <Button onClick={() => save()} loading={busy}>
              Save
            </Button>
          </>
        }
      >
        <form className={styles.addRow} onSubmit={submit} aria-label="Add an email">
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
          <TextField label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
          <Button type="submit" disabled={!canAdd} className={styles.addButton}>
            Add
          </Button>
        </form>
        <h3 className={styles.listTitle} id="email-list-title">
          Email List for Report
        </h3>
        {rows.length === 0 ? (
          <p className={styles.empty}>No email added yet.</p>
        ) : (
          <table className={styles.table} aria-labelledby="email-list-title" data-testid="email-list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Enabled</th>
                <th scope="col">
                  <span className="visually-hidden">Delete</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-email={row.email}>
                  <td className={styles.name}>{row.name}</td>
                  <td className={styles.email}>{row.email}</td>
                  <td className={styles.enabled}>
                    <SwitchButton
                      pressed={row.is_enable}
                      dimWhenOff={false}
                      onClick={() => toggle(row.id)}
                      aria-label={`Enabled: ${row.email}`}
                      className={styles.switch}
                    >
                      {row.is_enable ? 'On' : 'Off'}
                    </SwitchButton>
                  </td>
                  <td className={styles.deleteCell}>
                    <Button
                      variant="secondary"
                      className={styles.delete}
                      onClick={() => remove(row.id)}
                      disabled={busy}
                      aria-label={`Delete ${row.email}`}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Dialog>
      <ResultPopup result={result} onClose={closeResult} testId="email-setup-result" />
    </>
  );
}
