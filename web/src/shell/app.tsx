import { useCallback, useEffect, useMemo, useState } from 'react';
import { Provider } from 'urql';
import { AccessContext } from '../access/access-context.js';
import type { Access } from '../access/access.js';
import { AcceptInvitation } from '../invitations/accept-invitation.js';
import { ResetPassword } from '../password-reset/reset-password.js';
import { navigate, useRoute } from '../shared/use-route.js';
import type { ConsoleAuth } from './console-auth.js';
import { createConsoleClient } from './console-client.js';
import type { ConsoleSession } from './console-session.js';
import { ConnectionContext } from './connection-context.js';
import { clearCredentials, loadCredentials, saveCredentials } from './credentials.js';
import { RestContext } from './rest-context.js';
import { changeAccount, endEverySession, endSession, fetchAccess, fetchSession } from './session-api.js';
import { SessionContext, type SessionControls } from './session-context.js';
import { Shell } from './shell.js';
import type { SignedIn } from './signed-in.js';
import { SignIn } from './sign-in.js';
import './styles.css';

/** Who is signed in: the means (key or session), the person's session and their rights in the account shown. */
interface SignedInState {
  auth: ConsoleAuth;
  session: ConsoleSession | null;
  access: Access;
}

type Phase = { is: 'checking' } | { is: 'signed-out' } | ({ is: 'signed-in' } & SignedInState);

/** The auth a sign-in means: a session's CSRF token and account, or the key. */
function authOf(signedIn: SignedIn): ConsoleAuth {
  return signedIn.kind === 'key'
    ? { kind: 'key', credentials: signedIn.credentials }
    : { kind: 'session', csrfToken: signedIn.session.csrfToken, accountId: signedIn.session.accountId };
}

/** Reads the caller's rights before the shell shows, so no write control flashes for a read-only member. */
async function signedInState(signedIn: SignedIn): Promise<SignedInState> {
  const auth = authOf(signedIn);
  const session = signedIn.kind === 'session' ? signedIn.session : null;
  const access = await fetchAccess(auth);
  // A server with sessions but no access route yet: the session says the role.
  if (session && access.label === '' && access.userId === null) return { auth, session, access: { ...access, role: session.role, userId: session.user.id, label: session.user.email } };
  return { auth, session, access };
}

/** Pages a person opens from a link without being signed in: accepting an invitation, resetting a password. */
function publicPage(path: string): { invitation: string } | { reset: string } | null {
  const invitation = /^\/invitations\/([^/]+)$/.exec(path);
  if (invitation) return { invitation: decodeURIComponent(invitation[1]!) };
  const reset = /^\/reset-password\/([^/]+)$/.exec(path);
  return reset ? { reset: decodeURIComponent(reset[1]!) } : null;
}

/**
 * The console's root: a stored API key (as before people had accounts) or the browser's session
 * cookie signs in; else the sign-in page. Invitation and password-reset links open without signing in.
 */
export function App() {
  const [phase, setPhase] = useState<Phase>({ is: 'checking' });
  const { path } = useRoute();

  const signIn = useCallback(async (signedIn: SignedIn) => {
    if (signedIn.kind === 'key') saveCredentials(localStorage, signedIn.credentials);
    // A person signing in stops using a key kept from before.
    else clearCredentials(localStorage);
    setPhase({ is: 'signed-in', ...(await signedInState(signedIn)) });
  }, []);

  useEffect(() => {
    let cancelled = false;
    async function check() {
      const credentials = loadCredentials(localStorage);
      const session = credentials ? null : await fetchSession();
      const signedIn: SignedIn | null = credentials ? { kind: 'key', credentials } : session ? { kind: 'session', session } : null;
      const next: Phase = signedIn ? { is: 'signed-in', ...(await signedInState(signedIn)) } : { is: 'signed-out' };
      if (!cancelled) setPhase(next);
    }
    void check();
    return () => {
      cancelled = true;
    };
  }, []);

  const auth = phase.is === 'signed-in' ? phase.auth : null;
  // One client (and socket) per sign-in and account; closed on sign-out, not on unmount, which StrictMode simulates.
  const connection = useMemo(() => (auth ? createConsoleClient(auth) : null), [auth]);

  const controls = useMemo<SessionControls>(() => ({
    session: phase.is === 'signed-in' ? phase.session : null,
    signOut() {
      connection?.dispose();
      if (auth?.kind === 'session') void endSession(auth);
      clearCredentials(localStorage);
      setPhase({ is: 'signed-out' });
    },
    async signOutEverywhere() {
      if (auth?.kind !== 'session') return 'Signed in with an API key: there are no sessions to end.';
      const problem = await endEverySession(auth);
      if (problem) return problem;
      connection?.dispose();
      setPhase({ is: 'signed-out' });
      return null;
    },
    async switchAccount(accountId: string) {
      if (auth?.kind !== 'session') return 'Signed in with an API key: sign in as a person to switch accounts.';
      const result = await changeAccount(auth, accountId);
      if (!result.ok) return result.message;
      connection?.dispose();
      setPhase({ is: 'signed-in', ...(await signedInState({ kind: 'session', session: result.session })) });
      navigate('/');
      return null;
    },
  }), [phase, auth, connection]);

  const linked = publicPage(path);
  if (linked && 'invitation' in linked) {
    return <AcceptInvitation token={linked.invitation} session={controls.session} onSignedIn={(session) => void signIn({ kind: 'session', session }).then(() => navigate('/'))} />;
  }
  if (linked) return <ResetPassword token={linked.reset} onDone={() => navigate('/')} />;
  if (phase.is === 'checking') return <main className="sign-in"><p aria-busy="true">Loading…</p></main>;
  if (phase.is === 'signed-out' || !connection) return <SignIn onSignedIn={(signedIn) => void signIn(signedIn)} />;
  return (
    <Provider value={connection.client}>
      <ConnectionContext.Provider value={connection.connection}>
        <RestContext.Provider value={connection.rest}>
          <AccessContext.Provider value={phase.access}>
            <SessionContext.Provider value={controls}>
              <Shell key={phase.access.accountId} onSignOut={controls.signOut} />
            </SessionContext.Provider>
          </AccessContext.Provider>
        </RestContext.Provider>
      </ConnectionContext.Provider>
    </Provider>
  );
}
