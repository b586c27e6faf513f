import { useEffect, useId, useState, type FormEvent } from 'react';
import { ROLE_DESCRIPTIONS, ROLE_NAMES, isRole, type Role } from '../access/roles.js';
import { passwordProblem, PASSWORD_MIN } from '../shared/password-problem.js';
import { refusalText } from '../shared/refusal-text.js';
import { restRequest } from '../shared/rest-answer.js';
import { consoleHeaders } from '../shell/console-auth.js';
import { readSession, type ConsoleSession } from '../shell/console-session.js';
import { PasswordSignInForm } from '../shell/password-sign-in-form.js';

/** An invitation as its link shows it (`GET /v1/invitations/:token`). */
interface Invitation {
  accountName: string;
  email: string;
  role: Role;
  /** Whether the invited address already belongs to a person here (who signs in instead of choosing a password). */
  hasAccount: boolean;
}

type Loaded = { is: 'loading' } | { is: 'refused'; message: string } | { is: 'open'; invitation: Invitation };

/**
 * The page an invitation link opens, `/invitations/<token>`, without signing in: someone new picks
 * their name and a password; someone with an account here signs in (or is signed in) and joins.
 * Accepting signs them in to the inviting account.
 */
export function AcceptInvitation({ token, session, onSignedIn }: { token: string; session: ConsoleSession | null; onSignedIn(session: ConsoleSession): void }) {
  const [loaded, setLoaded] = useState<Loaded>({ is: 'loading' });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameId = useId();
  const passwordId = useId();
  const path = `/v1/invitations/${encodeURIComponent(token)}`;

  useEffect(() => {
    let cancelled = false;
    void restRequest<Partial<Invitation>>('GET', path, { 'x-lookout-via': 'console' }).then((answer) => {
      if (cancelled) return;
      const body = answer.body;
      if (answer.ok && body && isRole(body.role)) {
        setLoaded({ is: 'open', invitation: { accountName: String(body.accountName ?? ''), email: String(body.email ?? ''), role: body.role, hasAccount: Boolean(body.hasAccount) } });
      } else {
        setLoaded({ is: 'refused', message: answer.status === 404 && !answer.code ? refusalText({ ...answer, code: 'INVITATION_NOT_FOUND' }) : refusalText(answer) });
      }
    });
    return () => {
      cancelled = true;
    };
  }, [path]);

  /** Accepts: with a name and password for someone new, with the session (its CSRF token) for someone signed in. */
  async function accept(as: ConsoleSession | null) {
    setBusy(true);
    setError(null);
    const headers = as ? consoleHeaders({ kind: 'session', csrfToken: as.csrfToken, accountId: as.accountId }) : { 'x-lookout-via': 'console' };
    const answer = await restRequest('POST', `${path}/accept`, headers, as ? {} : { name: name.trim(), password });
    setBusy(false);
    const joined = answer.ok ? readSession(answer.body) : null;
    if (joined) return onSignedIn(joined);
    return setError(answer.ok ? 'The server accepted, but did not sign you in: sign in to continue.' : refusalText(answer, 'Could not accept the invitation'));
  }

  function submitNew(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Enter your name.');
    const problem = passwordProblem(password);
    if (problem) return setError(problem);
    return void accept(null);
  }

  if (loaded.is === 'loading') return <main className="sign-in"><p aria-busy="true">Loading the invitation…</p></main>;
  if (loaded.is === 'refused') {
    return (
      <main className="sign-in">
        <section className="card sign-in__form"><h1>Invitation</h1><p className="form-error" role="alert">{loaded.message}</p><p><a href="/">Go to the console</a></p></section>
      </main>
    );
  }
  const { invitation } = loaded;
  const intro = (
    <>
      <h1>Join {invitation.accountName}</h1>
      <p>You are invited as <strong>{ROLE_NAMES[invitation.role]}</strong> ({ROLE_DESCRIPTIONS[invitation.role]}) with <strong>{invitation.email}</strong>.</p>
    </>
  );
  const errorNotice = error && <p className="form-error" role="alert">{error}</p>;

  if (session) {
    return (
      <main className="sign-in">
        <section className="card sign-in__form" aria-busy={busy}>
          {intro}
          <p className="muted">Signed in as {session.user.email}.</p>
          {errorNotice}
          <div className="actions"><button type="button" className="button button--primary" disabled={busy} onClick={() => void accept(session)}>Join {invitation.accountName}</button></div>
        </section>
      </main>
    );
  }
  if (invitation.hasAccount) {
    return (
      <main className="sign-in">
        <div>
          <section className="card sign-in__form">{intro}<p className="muted">You already have a Lookout sign-in: sign in to join.</p>{errorNotice}</section>
          <PasswordSignInForm onSignedIn={(signedIn) => void accept(signedIn)} onUseKey={() => setError('An API key cannot accept an invitation: sign in with your email and password.')}
            onForgot={() => window.location.assign('/')} />
        </div>
      </main>
    );
  }
  return (
    <main className="sign-in">
      <form className="card sign-in__form" onSubmit={submitNew} noValidate>
        {intro}
        <div className="field">
          <label htmlFor={nameId}>Your name</label>
          <input id={nameId} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} autoFocus required />
        </div>
        <div className="field">
          <label htmlFor={passwordId}>Choose a password</label>
          <input id={passwordId} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby={`${passwordId}-hint`} required />
          <p id={`${passwordId}-hint`} className="hint">At least {PASSWORD_MIN} characters.</p>
        </div>
        {errorNotice}
        <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>Accept and sign in</button></div>
      </form>
    </main>
  );
}
