import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './test-server.js';

/** What the test provider says about a person: the claims of the `email` and `profile` scopes. */
export interface ProviderPerson {
  email?: string;
  email_verified?: boolean;
  name?: string;
  lookout_roles?: string[];
}

/** A real OpenID provider (oidc-provider) on loopback, with one client registered for a Lookout under test. */
export interface OidcTestProvider {
  /** Its issuer URL (LOOKOUT_OIDC_ISSUER). */
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string | null;
  /** Sets what the provider says about the person who signs in as `login` (their subject is `login`); takes effect at their next sign-in. */
  setPerson(login: string, person: ProviderPerson): void;
  close(): Promise<void>;
}

/** Options of startOidcProvider. */
export interface OidcTestProviderOptions {
  /** The Lookout's callback, `<publicUrl>/v1/sso/oidc/callback`. */
  redirectUri: string;
  /** Port to listen on (a test may reserve it and start the provider late); default: a free one. */
  port?: number;
  /** The client's secret, or null for a public client (PKCE only, no client authentication). */
  clientSecret?: string | null;
}

/**
 * Starts oidc-provider as a real OpenID provider on 127.0.0.1. Its development interactions stand
 * in for a login page: any login and password sign in as that login, then a consent page asks once
 * (oidc-sign-in.ts fills both over HTTP; Chromium clicks them). People's claims come from
 * setPerson; `lookout_roles` travels with the `profile` scope, as groups do at Keycloak or Authentik.
 */
export async function startOidcProvider(options: OidcTestProviderOptions): Promise<OidcTestProvider> {
  const port = options.port ?? await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientSecret = options.clientSecret === undefined ? 'test-client-secret-0123456789' : options.clientSecret;
  const people = new Map<string, ProviderPerson>();
  const provider = new Provider(issuer, {
    clients: [{
      client_id: 'lookout',
      ...(clientSecret === null ? { token_endpoint_auth_method: 'none' } : { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
      redirect_uris: [options.redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'lookout_roles'] },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    // Said, so the provider does not print a notice for each default it falls back to.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, ...(people.get(sub) ?? { email: `${sub}@example.test`, email_verified: true, name: sub }) };
        },
      };
    },
  });
  const server: Server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    issuer,
    port,
    clientId: 'lookout',
    clientSecret,
    setPerson(login, person) {
      people.set(login, person);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
