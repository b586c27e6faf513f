import { useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../__generated__/gql.js';

const SubscribeChecks = graphql(`
  mutation ConsoleSubscribeChecksToChannel($id: ID!, $checkIds: [ID!], $all: Boolean, $groupIds: [ID!]) {
    subscribeToAlertChannel(id: $id, checkIds: $checkIds, all: $all, groupIds: $groupIds) {
      alertChannel { id subscriptions { subscriptionId activated checkId groupId check { id name } group { id name } } }
      subscriptions { subscriptionId }
      userErrors { field code message }
    }
  }
`);

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Subscribes many checks (or every check of the account, "All checks") and groups at once, in one request. */
export function SubscribeChecksForm({ channelId, label, checks, groups, onDone }: {
  channelId: string; label: string; checks: readonly { checkId: string; name: string }[]; groups: readonly { id: string; name: string }[];
  onDone(message: string): void;
}) {
  const [state, subscribe] = useMutation(SubscribeChecks);
  const [picked, setPicked] = useState<string[]>([]);
  const [pickedGroups, setPickedGroups] = useState<string[]>([]);
  const [all, setAll] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pickId = useId();
  const groupPickId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const groupIds = pickedGroups.length ? { groupIds: pickedGroups } : {};
    const result = await subscribe(all ? { id: channelId, all: true, ...groupIds } : { id: channelId, checkIds: picked, ...groupIds });
    const payload = result.data?.subscribeToAlertChannel;
    const problems = result.error ? [result.error.message] : (payload?.userErrors ?? []).map((e) => e.message);
    if (problems.length) return setProblem(problems.join(' '));
    const count = (payload?.subscriptions?.length ?? 0) - pickedGroups.length;
    const what = [count > 0 || !pickedGroups.length ? `${all ? 'all ' : ''}${plural(count, 'check')}` : '', pickedGroups.length ? plural(pickedGroups.length, 'group') : '']
      .filter(Boolean).join(' and ');
    setProblem(null);
    setPicked([]);
    setPickedGroups([]);
    setAll(false);
    onDone(`Subscribed ${what} to the ${label} channel.`);
  }

  return (
    <form className="field-row subscribe-row" onSubmit={submit} aria-label={`Check picker of ${label}`}>
      {checks.length > 0 && (
        <>
          {/* Checks already subscribed are not offered; "All checks" still reaches every check of the account. */}
          <div className="field">
            <label htmlFor={pickId}>Subscribe checks</label>
            <select id={pickId} multiple size={Math.min(6, Math.max(2, checks.length))} disabled={all} value={picked}
              onChange={(e) => setPicked([...e.target.selectedOptions].map((o) => o.value))}>
              {checks.map((c) => <option key={c.checkId} value={c.checkId}>{c.name}</option>)}
            </select>
          </div>
        </>
      )}
      <label className="checkbox"><input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All checks</label>
      {groups.length > 0 && (
        <div className="field">
          <label htmlFor={groupPickId}>Subscribe groups</label>
          <select id={groupPickId} multiple size={Math.min(6, Math.max(2, groups.length))} value={pickedGroups}
            onChange={(e) => setPickedGroups([...e.target.selectedOptions].map((o) => o.value))}>
            {groups.map((g) => <option key={g.id} value={g.id}>{g.name}</option>)}
          </select>
        </div>
      )}
      <div className="field"><span aria-hidden="true">&nbsp;</span>
        <button type="submit" className="button" disabled={state.fetching || (!all && picked.length === 0 && pickedGroups.length === 0)}>Subscribe</button>
      </div>
      {problem && <p className="form-error" role="alert">{problem}</p>}
    </form>
  );
}
