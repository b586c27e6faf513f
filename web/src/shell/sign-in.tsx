import { useState } from 'react';
import { ForgotPasswordForm } from '../password-reset/forgot-password-form.js';
import { KeySignInForm } from './key-sign-in-form.js';
import { PasswordSignInForm } from './password-sign-in-form.js';
import type { SignedIn } from './signed-in.js';
import { ssoErrorOf, ssoErrorWords } from './sso-error-words.js';

/**
 * The sign-in page: people sign in with their email and password (or single sign-on); an API key
 * stays a secondary way in, for servers without people and for trying a key.
 */
export function SignIn({ onSignedIn }: { onSignedIn(signedIn: SignedIn): void }) {
  const [mode, setMode] = useState<{ is: 'password' } | { is: 'key' } | { is: 'forgot'; email: string }>({ is: 'password' });
  // A refused single sign-on comes back as /?ssoError=<code> (the server's redirect).
  const [ssoError] = useState(() => ssoErrorOf(window.location.search));
  return (
    <main className="sign-in">
      {ssoError && <p className="form-error sign-in__notice" role="alert">{ssoErrorWords(ssoError)}</p>}
      {mode.is === 'key' && <KeySignInForm onSignedIn={(credentials) => onSignedIn({ kind: 'key', credentials })} onUsePassword={() => setMode({ is: 'password' })} />}
      {mode.is === 'forgot' && <ForgotPasswordForm initialEmail={mode.email} onBack={() => setMode({ is: 'password' })} />}
      {mode.is === 'password' && (
        <PasswordSignInForm onSignedIn={(session) => onSignedIn({ kind: 'session', session })} onUseKey={() => setMode({ is: 'key' })}
          onForgot={(email) => setMode({ is: 'forgot', email })} />
      )}
    </main>
  );
}
