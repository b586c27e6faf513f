import { useId, useState, type FormEvent } from 'react';
import { passwordProblem, PASSWORD_MIN } from '../shared/password-problem.js';
import { refusalText } from '../shared/refusal-text.js';
import { restRequest } from '../shared/rest-answer.js';

/**
 * The page a password reset link opens, `/reset-password/<token>`, without signing in: the person
 * chooses a new password (`POST /v1/password-resets/:token`), then signs in with it.
 */
export function ResetPassword({ token, onDone }: { token: string; onDone(): void }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const passwordId = useId();
  const repeatId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = passwordProblem(password, repeat);
    if (problem) return setError(problem);
    setBusy(true);
    const answer = await restRequest('POST', `/v1/password-resets/${encodeURIComponent(token)}`, { 'x-lookout-via': 'console' }, { password });
    setBusy(false);
    if (!answer.ok) return setError(answer.status === 404 && !answer.code ? refusalText({ ...answer, code: 'RESET_EXPIRED' }) : refusalText(answer, 'Could not set the password'));
    setError(null);
    return setDone(true);
  }

  return (
    <main className="sign-in">
      <form className="card sign-in__form" onSubmit={submit} noValidate>
        <h1>Choose a new password</h1>
        {done ? (
          <>
            <p role="status">Your password is changed, and every session signed in with the old one has ended.</p>
            <div className="actions"><button type="button" className="button button--primary" onClick={onDone}>Sign in</button></div>
          </>
        ) : (
          <>
            <div className="field">
              <label htmlFor={passwordId}>New password</label>
              <input id={passwordId} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby={`${passwordId}-hint`} autoFocus required />
              <p id={`${passwordId}-hint`} className="hint">At least {PASSWORD_MIN} characters.</p>
            </div>
            <div className="field">
              <label htmlFor={repeatId}>New password again</label>
              <input id={repeatId} type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} required />
            </div>
            {error && <p className="form-error" role="alert">{error}</p>}
            <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>Set password</button></div>
          </>
        )}
      </form>
    </main>
  );
}
