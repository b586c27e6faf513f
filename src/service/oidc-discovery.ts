import * as client from 'openid-client';
import type { OidcSettings } from '../config.js';

/** Seconds one request to the provider may take (discovery, token exchange, userinfo). */
const REQUEST_TIMEOUT_SECONDS = 10;
/** Waits between discovery attempts while the provider does not answer: from 1 s, doubling up to 60 s. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60_000;

interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** The provider's configuration, once read; `close()` stops retrying. */
export interface OidcDiscovery {
  /** The configuration, reading the provider's metadata now when it has not been read yet (throws while it does not answer). */
  configuration(): Promise<client.Configuration>;
  close(): void;
}

/** The client's authentication at the token endpoint: the secret (HTTP Basic, OpenID's default), or none for a public client (PKCE only). */
function clientAuthentication(settings: OidcSettings): client.ClientAuth {
  return settings.clientSecret === null ? client.None() : client.ClientSecretBasic(settings.clientSecret);
}

/**
 * Reads the provider's metadata (`/.well-known/openid-configuration`) in the background from the
 * start, and again on demand, retrying with growing waits while it fails: the server starts and
 * serves everything else while the provider is down, and single sign-on works once it answers
 * (logged at info). An http issuer is allowed (a provider on the same host or private network).
 */
export function createOidcDiscovery({ settings, logger }: { settings: OidcSettings; logger: Logger }): OidcDiscovery {
  let found: client.Configuration | undefined;
  let attempt: Promise<client.Configuration> | undefined;
  let retryMs = FIRST_RETRY_MS;
  let failing = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const issuer = new URL(settings.issuer);
  if (issuer.protocol === 'http:') logger.warn({ issuer: settings.issuer }, 'single sign-on: the OpenID provider is reached over plain http; use https unless it is on this host or a private network');

  function discover(): Promise<client.Configuration> {
    attempt ??= client.discovery(issuer, settings.clientId, undefined, clientAuthentication(settings), {
      timeout: REQUEST_TIMEOUT_SECONDS,
      execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
    }).then((configuration) => {
      found = configuration;
      clearTimeout(timer);
      if (!closed) logger.info({ issuer: settings.issuer }, 'single sign-on ready: the OpenID provider answered');
      return configuration;
    }, (err: unknown) => {
      attempt = undefined;
      // One warning per outage, not one per retry.
      if (!failing) logger.warn({ issuer: settings.issuer, err: String((err as Error)?.cause ?? err) }, 'single sign-on: the OpenID provider does not answer yet; retrying');
      failing = true;
      scheduleRetry();
      throw err;
    });
    return attempt;
  }

  /** One retry at a time: a failed on-demand attempt while one is planned plans no other. */
  function scheduleRetry(): void {
    if (closed || found || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void discover().catch(() => {});
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  }

  void discover().catch(() => {});
  return {
    async configuration() {
      return found ?? discover();
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
