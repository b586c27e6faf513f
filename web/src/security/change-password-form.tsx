import { useId, useState, type FormEvent } from 'react';
import { passwordProblem, PASSWORD_MIN } from '../shared/password-problem.js';
import { refusalText } from '../shared/refusal-text.js';
import { useRest } from '../shell/rest-context.js';

/** Changes the person's password (`PUT /v1/users/me/password`); their other sessions end, this one stays. */
export function ChangePasswordForm() {
  const rest = useRest();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const currentId = useId();
  const nextId = useId();
  const repeatId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    if (!current) return setError('Enter your current password.');
    const problem = passwordProblem(next, repeat);
    if (problem) return setError(problem);
    setBusy(true);
    const answer = await rest('PUT', '/v1/users/me/password', { currentPassword: current, newPassword: next });
    setBusy(false);
    if (!answer.ok) return setError(answer.code === 'INVALID_CREDENTIALS' || (answer.status === 401 && !answer.code) ? refusalText({ ...answer, code: 'WRONG_PASSWORD' }) : refusalText(answer, 'Could not change the password'));
    setError(null);
    setCurrent('');
    setNext('');
    setRepeat('');
    return setDone(true);
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <div className="field">
        <label htmlFor={currentId}>Current password</label>
        <input id={currentId} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      </div>
      <div className="field-row">
        <div className="field field--grow">
          <label htmlFor={nextId}>New password</label>
          <input id={nextId} type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} aria-describedby={`${nextId}-hint`} />
          <p id={`${nextId}-hint`} className="hint">At least {PASSWORD_MIN} characters.</p>
        </div>
        <div className="field field--grow">
          <label htmlFor={repeatId}>New password again</label>
          <input id={repeatId} type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </div>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      {done && <p role="status">Password changed. Your other sessions have ended; this one stays signed in.</p>}
      <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>Change password</button></div>
    </form>
  );
}
