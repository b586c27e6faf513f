import { useState, type ReactNode } from 'react';
import { useAccess } from '../access/use-access.js';

/**
 * A detail screen's action group ending in a two-step delete: the button asks `question`, then
 * "Confirm delete" runs `remove`, which answers the API's problems (none: it navigates away).
 * Problems show above the group, prefixed with what could not be deleted. The delete button shows
 * only to roles that may change resources (Read & Write and up).
 */
export function DeleteActions({ label, noun, question, remove, children }: {
  /** The group's accessible name, e.g. "Group actions". */
  label: string;
  /** What is deleted, as in "Delete group" and "Could not delete the group". */
  noun: string;
  question: ReactNode;
  remove(): Promise<string[]>;
  /** Other actions shown before the delete button. */
  children?: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { can } = useAccess();

  async function confirm() {
    setBusy(true);
    const problems = await remove().finally(() => setBusy(false));
    if (problems.length) {
      setProblem(`Could not delete the ${noun}: ${problems.join(' ')}`);
      setConfirming(false);
    }
  }

  return (
    <>
      {problem && <p className="form-error" role="alert">{problem}</p>}
      <div className="actions" role="group" aria-label={label}>
        {children}
        {!can('write') ? null : !confirming ? <button type="button" className="button" onClick={() => setConfirming(true)}>Delete {noun}</button> : (
          <>
            <span role="status">{question}</span>
            <button type="button" className="button button--danger" disabled={busy} onClick={confirm} autoFocus>Confirm delete</button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>Cancel</button>
          </>
        )}
      </div>
    </>
  );
}
