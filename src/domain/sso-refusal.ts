import { LookoutError } from './lookout-error.js';

/**
 * Why a single sign-on did not sign anybody in: the code the callback sends the console
 * (`/?ssoError=<code>`), stable so the console and scripts can tell them apart (README lists them).
 */
export const SSO_REFUSALS = {
  /** Single sign-on is not configured on this server. */
  SSO_DISABLED: 'Single sign-on is not configured on this server',
  /** The provider did not answer (down, unreachable, slow): try again later. */
  SSO_PROVIDER_UNAVAILABLE: 'The sign-in provider does not answer right now: try again in a moment',
  /** The callback belongs to no login this browser started, or its login was used or expired. */
  SSO_STATE: 'That sign-in link is not valid any more (expired, used, or started in another browser): sign in again',
  /** The person declined at the provider (`error=access_denied`). */
  SSO_DENIED: 'Sign-in was cancelled at the provider',
  /** The provider answered with another error. */
  SSO_PROVIDER_ERROR: 'The sign-in provider refused the sign-in',
  /** The provider's answer failed validation (ID token, nonce, issuer, PKCE). */
  SSO_INVALID_RESPONSE: 'The sign-in provider answered something this server cannot trust',
  /** The person's claims map to no account: nobody has given them access to Lookout. */
  SSO_NO_ACCOUNT: 'Your sign-in worked, but your groups give you access to no account here: ask an administrator',
  /** The provider sent no email address. */
  SSO_EMAIL_MISSING: 'The sign-in provider sent no email address',
  /** A person with this address exists, and the provider does not say it verified the address. */
  SSO_EMAIL_UNVERIFIED: 'A person with this email address exists here, and the provider does not vouch for the address: ask an administrator',
  /** A person with this address exists and signs in as another person of the provider. */
  SSO_EMAIL_TAKEN: 'A person with this email address already signs in here with another identity of the provider',
} as const;
export type SsoRefusalCode = keyof typeof SSO_REFUSALS;

/** The error of a refused single sign-on, its code in `attributes.code`. */
export function ssoRefusal(code: SsoRefusalCode, message: string = SSO_REFUSALS[code]): LookoutError {
  return new LookoutError(code === 'SSO_NO_ACCOUNT' ? 'FORBIDDEN' : 'UNAUTHENTICATED', message, { attributes: { code } });
}

/** The refusal code of an error, or undefined for any other error. */
export function ssoRefusalCode(err: unknown): SsoRefusalCode | undefined {
  const code = err instanceof LookoutError ? err.attributes?.code : undefined;
  return typeof code === 'string' && code in SSO_REFUSALS ? (code as SsoRefusalCode) : undefined;
}
