import { useId, useState, type FormEvent } from 'react';
import { refusalText } from '../shared/refusal-text.js';
import { useRest } from '../shell/rest-context.js';

/** A second factor being set up: the secret to enter by hand and the otpauth URI authenticator apps read. */
interface Enrolment {
  secret: string;
  uri: string;
}

/**
 * Two-factor authentication with an authenticator app (TOTP): turning it on shows the secret and
 * asks for a first code, proving the app has it before sign-ins need it; turning it off asks for a
 * code too, so a stolen session alone cannot remove it.
 */
export function TotpSettings({ enabled, onChanged }: { enabled: boolean; onChanged(enabled: boolean): void }) {
  const rest = useRest();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeId = useId();

  async function start() {
    setBusy(true);
    const answer = await rest<Partial<Enrolment>>('POST', '/v1/users/me/totp');
    setBusy(false);
    if (!answer.ok || !answer.body?.secret) return setError(refusalText(answer, 'Could not start setting up two-factor authentication'));
    setError(null);
    setMessage(null);
    return setEnrolment({ secret: answer.body.secret, uri: String(answer.body.uri ?? '') });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setError('Enter the 6 digits your authenticator app shows.');
    setBusy(true);
    const answer = enrolment
      ? await rest('POST', '/v1/users/me/totp/confirm', { code: code.trim() })
      : await rest('DELETE', '/v1/users/me/totp', { code: code.trim() });
    setBusy(false);
    setCode('');
    if (!answer.ok) return setError(refusalText(answer.code ? answer : { ...answer, code: answer.status === 400 || answer.status === 401 ? 'TOTP_INVALID' : null }));
    setError(null);
    setMessage(enrolment ? 'Two-factor authentication is on: signing in now asks for a code.' : 'Two-factor authentication is off.');
    setEnrolment(null);
    setDisabling(false);
    return onChanged(Boolean(enrolment));
  }

  const askingCode = enrolment !== null || disabling;
  return (
    <section className="card" aria-labelledby="totp-title">
      <h2 id="totp-title">Two-factor authentication</h2>
      <p>{enabled ? 'On: signing in asks for a code from your authenticator app.' : 'Off: signing in needs your password only.'}</p>
      {message && <p role="status">{message}</p>}
      {enrolment && (
        <div className="secret-box" data-totp-enrolment>
          <span>Add Lookout to your authenticator app: open <a href={enrolment.uri}>this link</a> on your phone, or enter this key by hand:</span>
          <code className="mono" data-totp-secret>{enrolment.secret}</code>
          <span className="hint mono">{enrolment.uri}</span>
        </div>
      )}
      {askingCode && (
        <form onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor={codeId}>Code from your authenticator app</label>
            <input id={codeId} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} aria-invalid={error ? true : undefined} />
          </div>
          {error && <p className="form-error" role="alert">{error}</p>}
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={busy}>{enrolment ? 'Turn on' : 'Turn off'}</button>
            <button type="button" className="button" onClick={() => { setEnrolment(null); setDisabling(false); setError(null); }}>Cancel</button>
          </div>
        </form>
      )}
      {!askingCode && error && <p className="form-error" role="alert">{error}</p>}
      {!askingCode && (
        <div className="actions">
          {enabled
            ? <button type="button" className="button" onClick={() => { setDisabling(true); setMessage(null); }}>Turn off two-factor authentication</button>
            : <button type="button" className="button button--primary" disabled={busy} onClick={() => void start()}>Set up two-factor authentication</button>}
        </div>
      )}
    </section>
  );
}
