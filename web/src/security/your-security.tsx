import { useState } from 'react';
import { useSession } from '../shell/session-context.js';
import { ChangePasswordForm } from './change-password-form.js';
import { TotpSettings } from './totp-settings.js';

/**
 * The signed-in person's own security: their password, their second factor, and ending every
 * session (a lost laptop, a shared computer). Any role may do all of it: it is about themselves.
 */
export function YourSecurity() {
  const { session, signOutEverywhere } = useSession();
  const [totpEnabled, setTotpEnabled] = useState(session?.user.totpEnabled ?? false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!session) {
    return <section><h1>Your security</h1><p className="muted">Signed in with an API key: a key has no password or second factor. Revoke it on the API keys page when it should stop working.</p></section>;
  }
  return (
    <section aria-labelledby="security-title">
      <h1 id="security-title">Your security</h1>
      <p className="muted">Signed in as {session.user.name ? `${session.user.name} (${session.user.email})` : session.user.email}.</p>
      <ChangePasswordForm />
      <TotpSettings enabled={totpEnabled} onChanged={setTotpEnabled} />
      <section className="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p>Signs you out on every browser and device, this one too.</p>
        {problem && <p className="form-error" role="alert">{problem}</p>}
        <div className="actions"><button type="button" className="button button--danger" onClick={async () => setProblem(await signOutEverywhere())}>Sign out everywhere</button></div>
      </section>
    </section>
  );
}
