import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { BULK_CHECK_ACTIONS, bulkOutcomeMessage, bulkQuestion, type BulkCheckAction } from './bulk-check-action.js';
import { runBulk } from './run-bulk.js';
import './checks-extras.css';

const DeleteCheck = graphql(`mutation ConsoleBulkDeleteCheck($id: ID!) { deleteCheck(id: $id) { deletedId userErrors { field code message } } }`);
const ActivateCheck = graphql(`mutation ConsoleBulkActivateCheck($id: ID!) { activateCheck(id: $id) { check { id activated } userErrors { field code message } } }`);
const DeactivateCheck = graphql(`mutation ConsoleBulkDeactivateCheck($id: ID!) { deactivateCheck(id: $id) { check { id activated } userErrors { field code message } } }`);
const MuteCheck = graphql(`mutation ConsoleBulkMuteCheck($id: ID!) { muteCheck(id: $id) { check { id muted } userErrors { field code message } } }`);
const UnmuteCheck = graphql(`mutation ConsoleBulkUnmuteCheck($id: ID!) { unmuteCheck(id: $id) { check { id muted } userErrors { field code message } } }`);

type Answer = { error?: { message: string }; data?: Record<string, { userErrors: readonly { message: string }[] } | null | undefined> | null };

/** The problems of one mutation's answer: a transport or GraphQL error, or its userErrors. */
function problemsOf(answer: Answer): string[] {
  if (answer.error) return [answer.error.message];
  const payload = Object.values(answer.data ?? {})[0];
  return payload ? payload.userErrors.map((e) => e.message) : ['No answer from the server.'];
}

/**
 * The list's bar for the selected checks: pause, resume, mute, unmute or delete them, each after a
 * confirmation, one mutation per check; then says what was done and which checks failed, and why.
 */
export function CheckBulkActions({ selected, nameOf, onDone, onClear }: {
  /** Global ids of the selected checks. */
  selected: readonly string[];
  nameOf(id: string): string;
  /** Called after an action with the ids it succeeded for (they are deselected; failed ones stay). */
  onDone(action: BulkCheckAction, succeeded: string[]): void;
  onClear(): void;
}) {
  const [, remove] = useMutation(DeleteCheck);
  const [, activate] = useMutation(ActivateCheck);
  const [, deactivate] = useMutation(DeactivateCheck);
  const [, mute] = useMutation(MuteCheck);
  const [, unmute] = useMutation(UnmuteCheck);
  const [confirming, setConfirming] = useState<BulkCheckAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const perform: Record<BulkCheckAction, (id: string) => Promise<Answer>> = {
    delete: (id) => remove({ id }), resume: (id) => activate({ id }), pause: (id) => deactivate({ id }),
    mute: (id) => mute({ id }), unmute: (id) => unmute({ id }),
  };

  async function confirm(action: BulkCheckAction) {
    setBusy(true);
    setMessage(`${BULK_CHECK_ACTIONS[action].label}…`);
    const ids = [...selected];
    const outcome = await runBulk(ids, async (id) => problemsOf(await perform[action](id)));
    setBusy(false);
    setConfirming(null);
    setMessage(bulkOutcomeMessage(action, outcome, nameOf));
    onDone(action, outcome.succeeded);
  }

  return (
    <div className="bulk-bar">
      <div className="actions" role="group" aria-label="Actions on the selected checks">
        <span className="muted">{selected.length} selected</span>
        {confirming ? (
          <>
            <span role="status">{bulkQuestion(confirming, selected.length)}</span>
            <button type="button" className={`button ${confirming === 'delete' ? 'button--danger' : 'button--primary'}`} disabled={busy}
              onClick={() => void confirm(confirming)} autoFocus>Confirm {BULK_CHECK_ACTIONS[confirming].label.toLowerCase()}</button>
            <button type="button" className="button" disabled={busy} onClick={() => setConfirming(null)}>Cancel</button>
          </>
        ) : (
          <>
            {(Object.keys(BULK_CHECK_ACTIONS) as BulkCheckAction[]).map((action) => (
              <button key={action} type="button" className="button" disabled={selected.length === 0}
                onClick={() => { setMessage(null); setConfirming(action); }}>{BULK_CHECK_ACTIONS[action].label}</button>
            ))}
            <button type="button" className="button" disabled={selected.length === 0} onClick={onClear}>Clear selection</button>
          </>
        )}
      </div>
      {message && <p role="status" className="muted">{message}</p>}
    </div>
  );
}
