import { useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../__generated__/gql.js';

const SubscribeChecks = graphql(`
  mutation ConsoleSubscribeChecksToChannel($id: ID!, $checkIds: [ID!], $all: Boolean) {
    subscribeToAlertChannel(id: $id, checkIds: $checkIds, all: $all) {
      alertChannel { id subscriptions { subscriptionId activated checkId groupId check { id name } group { id name } } }
      subscriptions { subscriptionId }
      userErrors { field code message }
    }
  }
`);

/** Subscribes many checks at once, or every check of the account ("All checks"), in one request. */
export function SubscribeChecksForm({ channelId, label, checks, onDone }: {
  channelId: string; label: string; checks: readonly { checkId: string; name: string }[]; onDone(message: string): void;
}) {
  const [state, subscribe] = useMutation(SubscribeChecks);
  const [picked, setPicked] = useState<string[]>([]);
  const [all, setAll] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pickId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await subscribe(all ? { id: channelId, all: true } : { id: channelId, checkIds: picked });
    const payload = result.data?.subscribeToAlertChannel;
    const problems = result.error ? [result.error.message] : (payload?.userErrors ?? []).map((e) => e.message);
    if (problems.length) return setProblem(problems.join(' '));
    const count = payload?.subscriptions?.length ?? 0;
    setProblem(null);
    setPicked([]);
    setAll(false);
    onDone(`Subscribed ${all ? 'all ' : ''}${count} check${count === 1 ? '' : 's'} to the ${label} channel.`);
  }

  return (
    <form className="field-row subscribe-row" onSubmit={submit} aria-label={`Check picker of ${label}`}>
      <div className="field">
        <label htmlFor={pickId}>Subscribe checks</label>
        <select id={pickId} multiple size={Math.min(6, Math.max(2, checks.length))} disabled={all} value={picked}
          onChange={(e) => setPicked([...e.target.selectedOptions].map((o) => o.value))}>
          {checks.map((c) => <option key={c.checkId} value={c.checkId}>{c.name}</option>)}
        </select>
      </div>
      <label className="checkbox"><input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All checks</label>
      <div className="field"><span aria-hidden="true">&nbsp;</span>
        <button type="submit" className="button" disabled={state.fetching || (!all && picked.length === 0)}>Subscribe</button>
      </div>
      {problem && <p className="form-error" role="alert">{problem}</p>}
    </form>
  );
}
