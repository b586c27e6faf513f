/** What each single sign-on refusal (`/?ssoError=<code>`, see README) means, in words for people. */
const WORDS: Record<string, string> = {
  SSO_DISABLED: 'Single sign-on is not set up on this server.',
  SSO_PROVIDER_UNAVAILABLE: 'The sign-on provider does not answer right now. Try again in a minute.',
  SSO_STATE: 'That sign-in link expired or was already used. Start again.',
  SSO_DENIED: 'Sign-in was cancelled at the provider.',
  SSO_PROVIDER_ERROR: 'The sign-on provider refused the sign-in.',
  SSO_INVALID_RESPONSE: 'The sign-on provider\'s answer could not be trusted. Ask your admin to check the provider settings.',
  SSO_NO_ACCOUNT: 'Your sign-on groups give you no Lookout account. Ask your admin for access.',
  SSO_EMAIL_MISSING: 'The sign-on provider did not tell Lookout your email address.',
  SSO_EMAIL_UNVERIFIED: 'Someone already signs in with your email address, and the provider has not verified it. Sign in with your password, or ask your admin.',
  SSO_EMAIL_TAKEN: 'Your email address already belongs to another sign-on identity. Ask your admin.',
};

/** The words of a refusal code, or a general sentence for one this console does not know. */
export function ssoErrorWords(code: string): string {
  return WORDS[code] ?? `Single sign-on failed (${code}).`;
}

/** The refusal code in a location's query (`?ssoError=`), if any. */
export function ssoErrorOf(search: string): string | null {
  const code = new URLSearchParams(search).get('ssoError');
  return code && /^[A-Z_]{1,64}$/.test(code) ? code : null;
}
