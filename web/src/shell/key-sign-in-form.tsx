import { useId, useState, type FormEvent } from 'react';
import type { Credentials } from './credentials.js';
import { verifyCredentials } from './verify-credentials.js';

/**
 * Signing in with an API key and, for keys of several accounts, the account id: for scripts' keys
 * and servers without people. The key is kept in local storage (shared with GraphiQL) until sign-out.
 */
export function KeySignInForm({ onSignedIn, onUsePassword }: { onSignedIn(credentials: Credentials): void; onUsePassword(): void }) {
  const [apiKey, setApiKey] = useState('');
  const [accountId, setAccountId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keyId = useId();
  const accountIdId = useId();
  const errorId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!apiKey.trim()) {
      setError('Enter an API key.');
      return;
    }
    setBusy(true);
    setError(null);
    const credentials: Credentials = accountId.trim() ? { apiKey: apiKey.trim(), accountId: accountId.trim() } : { apiKey: apiKey.trim() };
    const verified = await verifyCredentials(credentials);
    setBusy(false);
    if (verified.ok) onSignedIn(credentials);
    else setError(verified.message);
  }

  return (
    <form className="card sign-in__form" onSubmit={submit} aria-describedby={error ? errorId : undefined} noValidate>
      <h1>Sign in to Lookout</h1>
      <p className="muted">Use an API key of your account. It is kept in this browser only (local storage) until you sign out.</p>
      <div className="field">
        <label htmlFor={keyId}>API key</label>
        <input id={keyId} name="apiKey" type="password" autoComplete="current-password" value={apiKey} onChange={(e) => setApiKey(e.target.value)}
          aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} autoFocus required />
      </div>
      <div className="field">
        <label htmlFor={accountIdId}>Account id <span className="muted">(optional)</span></label>
        <input id={accountIdId} name="accountId" autoComplete="username" value={accountId} onChange={(e) => setAccountId(e.target.value)} />
      </div>
      {error && <p id={errorId} className="form-error" role="alert">{error}</p>}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        <button type="button" className="button button--link" onClick={onUsePassword}>Use email and password instead</button>
      </div>
    </form>
  );
}
