import { useId, useState, type FormEvent } from 'react';
import type { ConsoleSession } from './console-session.js';
import { signInWithPassword } from './session-api.js';
import { SsoButton } from './sso-button.js';

/**
 * A person signs in with their email and password; when they turned on two-factor authentication
 * the server answers TOTP_REQUIRED and the form asks for the 6-digit code, sending all three again.
 */
export function PasswordSignInForm({ onSignedIn, onUseKey, onForgot }: { onSignedIn(session: ConsoleSession): void; onUseKey(): void; onForgot(email: string): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [askCode, setAskCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const emailId = useId();
  const passwordId = useId();
  const codeId = useId();
  const errorId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) return setError('Enter your email address and password.');
    if (askCode && !/^\d{6}$/.test(totp.trim())) return setError('Enter the 6 digits your authenticator app shows.');
    setBusy(true);
    setError(null);
    const result = await signInWithPassword(askCode ? { email: email.trim(), password, totp: totp.trim() } : { email: email.trim(), password });
    setBusy(false);
    if (result.ok) return onSignedIn(result.session);
    if (result.code === 'TOTP_REQUIRED') {
      setAskCode(true);
      return undefined;
    }
    if (result.code === 'TOTP_INVALID') setTotp('');
    return setError(result.message);
  }

  return (
    <form className="card sign-in__form" onSubmit={submit} aria-describedby={error ? errorId : undefined} noValidate>
      <h1>Sign in to Lookout</h1>
      {!askCode && <SsoButton />}
      {askCode ? (
        <>
          <p className="muted">Two-factor authentication is on for {email.trim()}.</p>
          <div className="field">
            <label htmlFor={codeId}>Authentication code</label>
            <input id={codeId} name="totp" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} value={totp}
              onChange={(e) => setTotp(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={`${codeId}-hint${error ? ` ${errorId}` : ''}`} autoFocus required />
            <p id={`${codeId}-hint`} className="hint">The 6-digit code your authenticator app shows for Lookout.</p>
          </div>
        </>
      ) : (
        <>
          <div className="field">
            <label htmlFor={emailId}>Email</label>
            <input id={emailId} name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} autoFocus required />
          </div>
          <div className="field">
            <label htmlFor={passwordId}>Password</label>
            <input id={passwordId} name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} required />
          </div>
        </>
      )}
      {error && <p id={errorId} className="form-error" role="alert">{error}</p>}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Signing in…' : askCode ? 'Verify code' : 'Sign in'}</button>
        {askCode
          ? <button type="button" className="button button--link" onClick={() => { setAskCode(false); setTotp(''); setError(null); }}>Back</button>
          : <button type="button" className="button button--link" onClick={() => onForgot(email.trim())}>Forgot your password?</button>}
      </div>
      {!askCode && <p className="muted sign-in__alternative">For scripts and servers without people: <button type="button" className="button button--link" onClick={onUseKey}>Use an API key instead</button></p>}
    </form>
  );
}
