import { useId, useState, type FormEvent } from 'react';
import { RoleSelect } from '../access/role-select.js';
import { ROLE_NAMES, type Role } from '../access/roles.js';
import { useAccess } from '../access/use-access.js';
import { formatRelativeTime as relativeTime } from '../shared/relative-time.js';
import { refusalText } from '../shared/refusal-text.js';
import { useRestList } from '../shared/use-rest-list.js';
import { useRest } from '../shell/rest-context.js';
import { newApiKeyBody, readApiKeys, type ApiKeyRow } from './api-key.js';

/** When a key was last used, in words. */
function lastUse(at: string | null | undefined): string {
  return at ? relativeTime(at) : 'never';
}

/** What a key acts as, in words: a service key's role, or its person's. */
function actsAs(key: ApiKeyRow, selfId: string | null): string {
  if (key.kind === 'personal') return key.userId && key.userId === selfId ? 'Personal (yours)' : 'Personal';
  return key.role ? `Service · ${ROLE_NAMES[key.role]}` : 'Service';
}

/**
 * The account's API keys: listed by name with their first and last characters, kind and role,
 * creation, last use and expiry (never the key); a new key is shown once, right after it is made;
 * revoking asks first. Anyone signed in as a person makes personal keys (acting as them); service
 * keys, with a role up to the maker's own, are for admins and owners.
 */
export function ApiKeys() {
  const rest = useRest();
  const { access, can } = useAccess();
  const keys = useRestList('/v1/accounts/me/api-keys', readApiKeys);
  const person = access?.userId ?? null;
  const canService = can('manage');
  const defaultKind: 'service' | 'personal' = person ? 'personal' : 'service';
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'service' | 'personal'>(defaultKind);
  const [role, setRole] = useState<Role>(access?.role ?? 'READ_ONLY');
  const [expiresOn, setExpiresOn] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<{ name: string; key: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const ids = { name: useId(), kind: useId(), expires: useId() };
  const mayCreate = Boolean(person) || canService;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setNameError('Name is required');
    setBusy(true);
    const answer = await rest<{ key?: string }>('POST', '/v1/accounts/me/api-keys',
      newApiKeyBody({ name, kind, role, expiresOn }));
    setBusy(false);
    if (!answer.ok || !answer.body?.key) return setGeneral(refusalText(answer, 'Could not create the key'));
    setNameError(null);
    setGeneral(null);
    setMessage(null);
    setNewKey({ name: name.trim(), key: answer.body.key });
    setName('');
    return keys.reload();
  }

  async function revokeKey(id: string, keyName: string) {
    setConfirming(null);
    const answer = await rest('DELETE', `/v1/accounts/me/api-keys/${encodeURIComponent(id)}`);
    setMessage(answer.ok ? `Revoked ${keyName}: it no longer works.` : refusalText(answer, `Could not revoke ${keyName}`));
    keys.reload();
  }

  return (
    <section aria-labelledby="api-keys-title">
      <h1 id="api-keys-title">API keys</h1>
      {keys.error && !keys.items && <p className="form-error" role="alert">{keys.error}</p>}
      {message && <p role="status" className="muted">{message}</p>}
      {newKey && (
        <div className="card" role="alert" aria-labelledby="new-key-title">
          <h2 id="new-key-title">New key “{newKey.name}”</h2>
          <p>Copy it now: it is stored as a hash and will not be shown again.</p>
          <p><code className="mono" data-new-key>{newKey.key}</code></p>
          <div className="actions">
            <button type="button" className="button button--small" onClick={() => void navigator.clipboard?.writeText(newKey.key)}>Copy</button>
            <button type="button" className="button button--small" onClick={() => setNewKey(null)}>Done</button>
          </div>
        </div>
      )}
      {keys.items && (
        <table className="card" aria-label="API keys">
          <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Acts as</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {keys.items.map((k) => {
              const expired = k.expiresAt !== null && Date.parse(k.expiresAt) < Date.now();
              const mayRevoke = canService || (k.kind === 'personal' && k.userId !== null && k.userId === person);
              return (
                <tr key={k.id} data-api-key={k.id} data-kind={k.kind}>
                  <td>{k.name}</td>
                  <td className="mono">{k.prefix ?? ''}…{k.maskedKey.slice(-4)}</td>
                  <td>{actsAs(k, person)}</td>
                  <td><time dateTime={k.createdAt}>{relativeTime(k.createdAt)}</time></td>
                  <td>{k.lastUsedAt ? <time dateTime={k.lastUsedAt}>{lastUse(k.lastUsedAt)}</time> : 'never'}</td>
                  <td>{k.expiresAt ? <time dateTime={k.expiresAt} className={expired ? 'status--failing' : undefined}>{expired ? 'expired ' : ''}{relativeTime(k.expiresAt)}</time> : 'never'}</td>
                  <td>
                    {!mayRevoke ? null : confirming === k.id ? (
                      <>
                        <button type="button" className="button button--small button--danger" onClick={() => void revokeKey(k.id, k.name)}>Revoke {k.name} now</button>{' '}
                        <button type="button" className="button button--small" onClick={() => setConfirming(null)}>Keep</button>
                      </>
                    ) : (
                      <button type="button" className="button button--small" aria-label={`Revoke key ${k.name}`} onClick={() => setConfirming(k.id)}>Revoke</button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {mayCreate && (
        <form className="card" onSubmit={submit} noValidate aria-labelledby="new-api-key-title">
          <h2 id="new-api-key-title">Create a key</h2>
          {general && <div className="form-error" role="alert"><p>{general}</p></div>}
          <div className="field">
            <label htmlFor={ids.name}>Name (what the key is for)</label>
            <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={nameError ? true : undefined} aria-describedby={nameError ? `${ids.name}-error` : undefined} />
            {nameError && <p id={`${ids.name}-error`} className="field-error" role="alert" data-error-for="name">{nameError}</p>}
          </div>
          <div className="field-row">
            {person && canService && (
              <div className="field">
                <label htmlFor={ids.kind}>Kind</label>
                <select id={ids.kind} value={kind} onChange={(e) => setKind(e.target.value as 'service' | 'personal')} aria-describedby={`${ids.kind}-hint`}>
                  <option value="personal">Personal: acts as you</option>
                  <option value="service">Service: has a role of its own</option>
                </select>
                <p id={`${ids.kind}-hint`} className="hint">{kind === 'personal' ? 'Does what you may do, and stops when you leave the account.' : 'For CI and scripts: keeps working whoever leaves.'}</p>
              </div>
            )}
            {kind === 'service' && canService && access && <RoleSelect granter={access.role} value={role} onChange={setRole} label="Role" />}
            <div className="field">
              <label htmlFor={ids.expires}>Expires after <span className="muted">(optional)</span></label>
              <input id={ids.expires} type="date" value={expiresOn} min={new Date().toISOString().slice(0, 10)} onChange={(e) => setExpiresOn(e.target.value)} />
            </div>
          </div>
          <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>Create key</button></div>
        </form>
      )}
    </section>
  );
}
