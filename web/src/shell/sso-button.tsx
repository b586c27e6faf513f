import { useEffect, useState } from 'react';
import { fetchSso } from './session-api.js';

/**
 * "Sign in with <provider>" when the server offers single sign-on (`GET /v1/sso`); nothing otherwise.
 * The server's OIDC flow ends back on the page the person was on, with the session cookie set.
 */
export function SsoButton() {
  const [sso, setSso] = useState<{ name: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    void fetchSso().then((found) => !cancelled && setSso(found));
    return () => {
      cancelled = true;
    };
  }, []);
  if (!sso) return null;
  const returnTo = window.location.pathname + window.location.search;
  return (
    <div className="sign-in__sso">
      <button type="button" className="button sign-in__sso-button" onClick={() => window.location.assign(`/v1/sso/oidc/start?returnTo=${encodeURIComponent(returnTo || '/')}`)}>
        Sign in with {sso.name}
      </button>
      <p className="sign-in__or muted">or</p>
    </div>
  );
}
