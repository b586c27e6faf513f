import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { formatRelativeTime as relativeTime } from '../shared/relative-time.js';
import { fieldErrors, type FieldErrors } from '../shared/user-errors.js';

const ApiKeysQuery = graphql(`
  query ConsoleApiKeys { apiKeys { id name prefix maskedKey createdAt lastUsedAt } }
`);
const CreateApiKey = graphql(`
  mutation ConsoleCreateApiKey($input: ApiKeyInput!) {
    createApiKey(input: $input) { key apiKey { id name } userErrors { field code message } }
  }
`);
const RevokeApiKey = graphql(`
  mutation ConsoleRevokeApiKey($id: ID!) { revokeApiKey(id: $id) { revokedId userErrors { field code message } } }
`);

const NO_ERRORS: FieldErrors = { byField: {}, general: [] };

/** When a key was last used, in words. */
function lastUse(at: string | null | undefined): string {
  return at ? relativeTime(at) : 'never';
}

/**
 * The account's API keys: listed by name with their first and last characters, creation and last
 * use (never the key); a new key is shown once, right after it is made; revoking asks first.
 */
export function ApiKeys() {
  const [{ data, error }, reexecute] = useQuery({ query: ApiKeysQuery });
  const [created, create] = useMutation(CreateApiKey);
  const [, revoke] = useMutation(RevokeApiKey);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [message, setMessage] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<{ name: string; key: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const nameId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await create({ input: { name: name.trim() } });
    const userErrors = result.data?.createApiKey.userErrors ?? [];
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    if (userErrors.length) return setErrors(fieldErrors(userErrors, ['name']));
    setErrors(NO_ERRORS);
    setMessage(null);
    setNewKey({ name: name.trim(), key: result.data!.createApiKey.key! });
    setName('');
    reexecute({ requestPolicy: 'network-only' });
  }

  async function revokeKey(id: string, keyName: string) {
    setConfirming(null);
    const result = await revoke({ id });
    const problems = result.error ? [result.error.message] : (result.data?.revokeApiKey.userErrors ?? []).map((e) => e.message);
    setMessage(problems.length ? `Could not revoke ${keyName}: ${problems.join(' ')}` : `Revoked ${keyName}: it no longer works.`);
    reexecute({ requestPolicy: 'network-only' });
  }

  const nameError = errors.byField.name?.join(' ');
  return (
    <section aria-labelledby="api-keys-title">
      <h1 id="api-keys-title">API keys</h1>
      {error && !data && <ErrorNotice error={error} />}
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
      {data && (
        <table className="card" aria-label="API keys">
          <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {data.apiKeys.map((k) => (
              <tr key={k.id} data-api-key={k.id}>
                <td>{k.name}</td>
                <td className="mono">{k.prefix ?? ''}…{k.maskedKey.slice(-4)}</td>
                <td><time dateTime={k.createdAt}>{relativeTime(k.createdAt)}</time></td>
                <td>{k.lastUsedAt ? <time dateTime={k.lastUsedAt}>{lastUse(k.lastUsedAt)}</time> : 'never'}</td>
                <td>
                  {confirming === k.id ? (
                    <>
                      <button type="button" className="button button--small button--danger" onClick={() => revokeKey(k.id, k.name)}>Revoke {k.name} now</button>{' '}
                      <button type="button" className="button button--small" onClick={() => setConfirming(null)}>Keep</button>
                    </>
                  ) : (
                    <button type="button" className="button button--small" aria-label={`Revoke key ${k.name}`} onClick={() => setConfirming(k.id)}>Revoke</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="card" onSubmit={submit} noValidate aria-labelledby="new-api-key-title">
        <h2 id="new-api-key-title">Create a key</h2>
        {errors.general.length > 0 && <div className="form-error" role="alert">{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
        <div className="field">
          <label htmlFor={nameId}>Name (what the key is for)</label>
          <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={nameError ? true : undefined} aria-describedby={nameError ? `${nameId}-error` : undefined} />
          {nameError && <p id={`${nameId}-error`} className="field-error" role="alert" data-error-for="name">{nameError}</p>}
        </div>
        <div className="actions"><button type="submit" className="button button--primary" disabled={created.fetching}>Create key</button></div>
      </form>
    </section>
  );
}
