import { useId, useState, type FormEvent } from 'react';
import { refusalText } from '../shared/refusal-text.js';
import { restRequest } from '../shared/rest-answer.js';

/**
 * Asks the server to email a password reset link (`POST /v1/password-resets`). The answer is the
 * same whether or not the address is known, so the page never tells who has an account; a server
 * without email leaves it to an admin, which the page says.
 */
export function ForgotPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack(): void }) {
  const [email, setEmail] = useState(initialEmail);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const emailId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) return setError('Enter your email address.');
    setBusy(true);
    const answer = await restRequest('POST', '/v1/password-resets', { 'x-lookout-via': 'console' }, { email: email.trim() });
    setBusy(false);
    if (!answer.ok) return setError(refusalText(answer, 'Could not ask for a reset link'));
    setError(null);
    return setSent(true);
  }

  return (
    <form className="card sign-in__form" onSubmit={submit} noValidate>
      <h1>Reset your password</h1>
      {sent ? (
        <p role="status">If {email.trim()} belongs to someone here, a link to choose a new password is on its way. No email? Ask an admin of your account for a reset link.</p>
      ) : (
        <>
          <p className="muted">We email you a link to choose a new password.</p>
          <div className="field">
            <label htmlFor={emailId}>Email</label>
            <input id={emailId} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus required />
          </div>
          {error && <p className="form-error" role="alert">{error}</p>}
        </>
      )}
      <div className="actions">
        {!sent && <button type="submit" className="button button--primary" disabled={busy}>Email me a link</button>}
        <button type="button" className="button button--link" onClick={onBack}>Back to sign-in</button>
      </div>
    </form>
  );
}
