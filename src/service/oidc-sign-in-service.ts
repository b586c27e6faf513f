import * as client from 'openid-client';
import type { OidcSettings } from '../config.js';
import { isSameSecret } from '../domain/is-same-secret.js';
import { localReturnPath } from '../domain/local-return-path.js';
import { claimValues, mappedRoles } from '../domain/oidc-role-map.js';
import type { Role } from '../domain/roles.js';
import { hashToken } from '../domain/session-token.js';
import { ssoRefusal, ssoRefusalCode } from '../domain/sso-refusal.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { PersonRow } from '../store/people-repository.js';
import type { Repositories } from '../store/repositories.js';
import { createOidcDiscovery } from './oidc-discovery.js';
import type { SessionMeta, SessionService, StartedSession } from './session-service.js';
import { syncOidcMemberships } from './sync-oidc-memberships.js';

/** How long a person may take at the provider before the login is forgotten. */
export const SSO_LOGIN_SECONDS = 10 * 60;

interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Options of createOidcSignInService. */
export interface OidcSignInOptions {
  settings: OidcSettings;
  /** This server's base URL: the redirect URI is `<publicUrl>/v1/sso/oidc/callback`. */
  publicUrl: string;
  store: Store;
  bus: EventBus;
  sessions: SessionService;
  logger: Logger;
}

/** A login on its way to the provider: where to send the browser, and the state its cookie keeps. */
export interface StartedLogin {
  url: string;
  state: string;
}

/** The claims sign-in reads, from the ID token and the userinfo endpoint. */
type Claims = Record<string, unknown> & { sub: string };

/** The refusal of an error openid-client threw while talking to the provider or checking its answer. */
function providerFailure(err: unknown) {
  if (ssoRefusalCode(err)) return err;
  if (err instanceof client.ResponseBodyError || err instanceof client.AuthorizationResponseError) return ssoRefusal('SSO_PROVIDER_ERROR');
  if (err instanceof client.ClientError) return ssoRefusal('SSO_INVALID_RESPONSE');
  return ssoRefusal('SSO_PROVIDER_UNAVAILABLE');
}

/**
 * Signing in with OpenID Connect: the authorization code flow with PKCE (S256), state and nonce,
 * through openid-client. A login's state, nonce and PKCE verifier are kept in the database (any API
 * process can finish it; a callback is taken once); the browser keeps only the state, in a cookie.
 * The person is found by (issuer, subject), else by an email the provider says it verified, else
 * made; the role map then sets their memberships (syncOidcMemberships) before a session opens.
 */
export function createOidcSignInService({ settings, publicUrl, store, bus, sessions, logger }: OidcSignInOptions) {
  const discovery = createOidcDiscovery({ settings, logger });
  const redirectUri = new URL('/v1/sso/oidc/callback', publicUrl).href;

  async function configuration(): Promise<client.Configuration> {
    try {
      return await discovery.configuration();
    } catch {
      throw ssoRefusal('SSO_PROVIDER_UNAVAILABLE');
    }
  }

  /** The ID token's claims, with the userinfo endpoint's when the provider has one (many send groups and email only there). */
  async function claimsOf(config: client.Configuration, callbackUrl: URL, login: { nonce: string; code_verifier: string }, state: string): Promise<Claims> {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: login.code_verifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw ssoRefusal('SSO_INVALID_RESPONSE');
    if (!config.serverMetadata().userinfo_endpoint) return { ...idToken };
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
    return { ...idToken, ...userinfo, sub: idToken.sub };
  }

  /** The person of these claims: linked by (issuer, subject), else by a verified email, else new. */
  async function personOf(repos: Repositories, issuer: string, claims: Claims, firstAccountId: string): Promise<PersonRow> {
    const linked = await repos.people.findByOidc(issuer, claims.sub);
    if (linked) return linked;
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    if (!email) throw ssoRefusal('SSO_EMAIL_MISSING');
    const existing = await repos.people.findByEmail(email);
    if (existing) {
      if (claims.email_verified !== true) throw ssoRefusal('SSO_EMAIL_UNVERIFIED');
      if (existing.oidc_subject !== null) throw ssoRefusal('SSO_EMAIL_TAKEN');
      await repos.people.linkOidc(existing.id, issuer, claims.sub);
      return { ...existing, oidc_issuer: issuer, oidc_subject: claims.sub };
    }
    const name = [claims.name, claims.preferred_username, email].find((v): v is string => typeof v === 'string' && v.trim() !== '')!.trim();
    return repos.people.create({ email, name: name.slice(0, 200), accountId: firstAccountId, oidc: { issuer, subject: claims.sub } });
  }

  /** Sets the person's memberships from the claims and opens their session in the first mapped account. */
  async function signInWith(issuer: string, claims: Claims, meta: SessionMeta): Promise<StartedSession> {
    const values = claimValues(claims, settings.rolesClaim);
    const { person, roles, changed } = await store.transaction(async (repos) => {
      const mapped = new Map<string, Role>();
      for (const [accountId, role] of mappedRoles(settings.roleMap, values)) {
        if (await repos.accounts.get(accountId)) mapped.set(accountId, role);
        else logger.warn({ accountId }, 'single sign-on: LOOKOUT_OIDC_ROLE_MAP names an account that does not exist; skipped');
      }
      const [firstAccountId] = mapped.keys();
      if (!firstAccountId) throw ssoRefusal('SSO_NO_ACCOUNT');
      const found = await personOf(repos, issuer, claims, firstAccountId);
      // The memberships the claims set are the person's own doing, signing in from the console.
      await repos.auditLog.nameActor({ kind: 'user', id: found.id, label: found.email, via: 'console', ip: meta.ip ?? null });
      const sync = await syncOidcMemberships(repos, found.id, settings.roleMap, mapped);
      for (const accountId of sync.keptLastOwner) logger.warn({ accountId, userId: found.id }, 'single sign-on: the claims demote the last owner of an account; kept as owner');
      return { person: found, roles: mapped, changed: sync.changed };
    });
    for (const accountId of changed) await bus.publish({ type: 'accessChanged', accountId, userId: person.id, sessionIds: [] });
    logger.info({ userId: person.id, accounts: Object.fromEntries(roles), changed: changed.length }, 'signed in with single sign-on');
    return sessions.start(person, 'oidc', meta, [...roles.keys()][0]);
  }

  return {
    /** The words of the console's button. */
    name: settings.name,

    /** Starts a login: records its state, nonce and PKCE verifier, and answers the provider's URL. `returnTo` outside this server becomes `/`. */
    async start(returnTo: unknown): Promise<StartedLogin> {
      const config = await configuration();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      await store.ssoLogins.create({
        stateHash: hashToken(state), nonce, codeVerifier, returnTo: localReturnPath(returnTo), expiresAt: new Date(Date.now() + SSO_LOGIN_SECONDS * 1000),
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri, scope: settings.scopes.join(' '), state, nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
      });
      return { url: url.href, state };
    },

    /**
     * Finishes a login from the provider's redirect: `query` is the callback's query string and
     * `cookieState` the state the browser's cookie holds. Answers the session and where to go;
     * throws a refusal (ssoRefusal) for anything that does not end signed in.
     */
    async finish(query: string, cookieState: string | undefined, meta: SessionMeta): Promise<{ session: StartedSession; returnTo: string }> {
      const params = new URLSearchParams(query);
      const state = params.get('state');
      if (!state || !cookieState || !isSameSecret(state, cookieState)) throw ssoRefusal('SSO_STATE');
      const login = await store.ssoLogins.take(hashToken(state));
      if (!login) throw ssoRefusal('SSO_STATE');
      const error = params.get('error');
      if (error) {
        logger.info({ error, description: params.get('error_description') }, 'single sign-on: the provider answered an error');
        throw ssoRefusal(error === 'access_denied' ? 'SSO_DENIED' : 'SSO_PROVIDER_ERROR');
      }
      const config = await configuration();
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = params.toString();
      let claims: Claims;
      try {
        claims = await claimsOf(config, callbackUrl, login, state);
      } catch (err) {
        const refusal = providerFailure(err);
        logger.warn({ code: ssoRefusalCode(refusal), err: String(err), cause: String((err as Error).cause ?? '') }, 'single sign-on: the provider\'s answer was refused');
        throw refusal;
      }
      return { session: await signInWith(config.serverMetadata().issuer, claims, meta), returnTo: login.return_to };
    },

    close() {
      discovery.close();
    },
  };
}
export type OidcSignInService = ReturnType<typeof createOidcSignInService>;
