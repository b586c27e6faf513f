import { useEffect, useId, useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { refusalText } from '../shared/refusal-text.js';
import { navigate, useRoute } from '../shared/use-route.js';
import { useRest } from '../shell/rest-context.js';
import { ACTION_WORDS, resourceTypeWords, VIA_WORDS, type AuditEntry, type AuditPage } from './audit-entry.js';
import { auditFilterFromSearch, auditFilterSearch, auditLogPath, type AuditFilter } from './audit-filter.js';

/**
 * Who changed what in the account, newest first, for admins and owners: filtered by resource,
 * person or key, action and dates (kept in the address, so a filtered view can be shared), with
 * older entries a page at a time. Field names only: values, secrets above all, are never logged.
 */
export function AuditLog() {
  const { can } = useAccess();
  const rest = useRest();
  const { search } = useRoute();
  const filter = auditFilterFromSearch(search);
  const [draft, setDraft] = useState<AuditFilter>(filter);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [nextId, setNextId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { type: useId(), id: useId(), actor: useId(), action: useId(), from: useId(), to: useId() };
  const key = auditFilterSearch(filter);

  async function load(after: string | null) {
    setBusy(true);
    const answer = await rest<AuditPage>('GET', auditLogPath(auditFilterFromSearch(key), after));
    setBusy(false);
    if (!answer.ok || !answer.body) return setError(refusalText(answer, 'Could not read the audit log'));
    setError(null);
    const page = answer.body;
    setEntries((before) => (after && before ? [...before, ...page.entries] : page.entries));
    return setNextId(page.nextId ?? null);
  }

  // Reads again (and shows the filter in the form) when the filter in the address changes.
  useEffect(() => {
    setDraft(auditFilterFromSearch(key));
    void load(null);
  }, [key]);

  function apply(event: FormEvent) {
    event.preventDefault();
    navigate(`/audit-log${auditFilterSearch(draft)}`, { replace: true });
  }

  if (!can('manage')) return <section><h1>Audit log</h1><p className="muted">Only admins and owners of the account read its audit log.</p></section>;
  const set = (field: keyof AuditFilter) => (e: { target: { value: string } }) => setDraft({ ...draft, [field]: e.target.value });
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form className="filters" onSubmit={apply} aria-label="Filter the audit log">
        <div className="field"><label htmlFor={ids.type}>Resource type</label><input id={ids.type} placeholder="check, check_group…" value={draft.resourceType} onChange={set('resourceType')} /></div>
        <div className="field"><label htmlFor={ids.id}>Resource id</label><input id={ids.id} value={draft.resourceId} onChange={set('resourceId')} /></div>
        <div className="field"><label htmlFor={ids.actor}>Person or key id</label><input id={ids.actor} value={draft.actorId} onChange={set('actorId')} /></div>
        <div className="field">
          <label htmlFor={ids.action}>Action</label>
          <select id={ids.action} value={draft.action} onChange={set('action')}>
            <option value="">Any</option><option value="create">Created</option><option value="update">Changed</option><option value="delete">Deleted</option>
          </select>
        </div>
        <div className="field"><label htmlFor={ids.from}>From</label><input id={ids.from} type="date" value={draft.from} onChange={set('from')} /></div>
        <div className="field"><label htmlFor={ids.to}>To</label><input id={ids.to} type="date" value={draft.to} onChange={set('to')} /></div>
        <div className="actions">
          <button type="submit" className="button button--primary">Filter</button>
          {key && <button type="button" className="button" onClick={() => { setDraft(auditFilterFromSearch('')); navigate('/audit-log', { replace: true }); }}>Clear filters</button>}
        </div>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
      {entries && entries.length === 0 && <p className="muted">No changes {key ? 'match these filters' : 'are logged yet'}.</p>}
      {entries && entries.length > 0 && (
        <table className="card" aria-label="Audit log">
          <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Fields</th><th scope="col">Via</th></tr></thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-audit-entry={entry.id}>
                <td><time dateTime={entry.at} title={new Date(entry.at).toLocaleString()}>{formatRelativeTime(entry.at)}</time></td>
                <td>
                  {entry.actor.id
                    ? <button type="button" className="button button--link" title="Show only their changes" onClick={() => navigate(`/audit-log${auditFilterSearch({ ...filter, actorId: entry.actor.id! })}`, { replace: true })}>{entry.actor.label}</button>
                    : entry.actor.label}
                  {entry.actor.kind === 'key' && <span className="pill">key</span>}
                </td>
                <td>{ACTION_WORDS[entry.action] ?? entry.action} {resourceTypeWords(entry.resourceType)} <span className="mono">{entry.resourceId}</span></td>
                <td className="mono">{entry.fields.join(', ')}</td>
                <td>{VIA_WORDS[entry.via] ?? entry.via}{entry.ip ? <span className="muted"> from {entry.ip}</span> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextId && <div className="pager"><button type="button" className="button" disabled={busy} onClick={() => void load(nextId)}>Older entries</button></div>}
    </section>
  );
}
