import type { FastifyReply } from 'fastify';
import { clearedSsoStateCookie, ssoStateCookie, ssoStateOf } from '../domain/sso-state-cookie.js';
import { ssoRefusal, ssoRefusalCode, type SsoRefusalCode } from '../domain/sso-refusal.js';
import { SSO_LOGIN_SECONDS } from '../service/oidc-sign-in-service.js';
import type { Api, ApiContext } from './api-context.js';
import { answerSession } from './session-routes.js';
import { SsoCallbackQuery, SsoStartQuery } from '../contract/account-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Sessions'];
const open = { public: true } as never;
const REDIRECT = { type: 'null', description: 'Found: the browser goes on to the Location header' } as const;

/**
 * Single sign-on with OpenID Connect: which sign-ins the console offers, the redirect to the
 * provider and its callback. Both redirects answer a browser, never JSON: a refused sign-in lands
 * on the console at `/?ssoError=<code>` (SSO_REFUSALS), which says why.
 */
export function ssoRoutes(app: Api, context: ApiContext): void {
  const { sso } = context;
  const secure = context.config.publicUrl.startsWith('https:');

  /** Sends the browser to the console with the refusal's code; anything unexpected is logged and answered as the provider's failure. */
  function refused(reply: FastifyReply, err: unknown) {
    let code: SsoRefusalCode | undefined = ssoRefusalCode(err);
    if (!code) {
      app.log.error({ err }, 'single sign-on failed');
      code = 'SSO_PROVIDER_UNAVAILABLE';
    }
    return reply.header('cache-control', 'no-store').redirect(`/?ssoError=${code}`, 302);
  }

  app.get('/v1/sso', {
    config: open,
    schema: { operationId: 'getSsoOptions', tags, summary: 'Which single sign-on the console offers', response: responses({ 200: ref('SsoOptions') }) },
  }, async () => ({ oidc: { enabled: sso !== undefined, name: sso?.name ?? context.config.oidc?.name ?? 'single sign-on' } }));

  // Redirects (302) to the provider with state, nonce and PKCE (S256), the state also in a short-lived HttpOnly cookie.
  app.get('/v1/sso/oidc/start', {
    config: open,
    // A page browsers are sent to, not an API call (README, "Single sign-on"): out of the OpenAPI document, like the console's pages.
    schema: { hide: true, querystring: SsoStartQuery, response: { 302: REDIRECT } },
  }, async (req, reply) => {
    try {
      if (!sso) throw ssoRefusal('SSO_DISABLED');
      const login = await sso.start(req.query.returnTo);
      return reply.header('set-cookie', ssoStateCookie(login.state, SSO_LOGIN_SECONDS, secure)).header('cache-control', 'no-store').redirect(login.url, 302);
    } catch (err) {
      return refused(reply, err);
    }
  });

  app.get('/v1/sso/oidc/callback', {
    config: open,
    // The provider's redirect back: checks state (against the cookie, once), PKCE, nonce and the ID
    // token, applies LOOKOUT_OIDC_ROLE_MAP, sets the session cookie and redirects to `returnTo`.
    schema: { hide: true, querystring: SsoCallbackQuery, response: { 302: REDIRECT } },
  }, async (req, reply) => {
    // Whatever happens, this login is over: its cookie goes.
    reply.header('set-cookie', clearedSsoStateCookie(secure));
    try {
      if (!sso) throw ssoRefusal('SSO_DISABLED');
      const query = req.url.slice(req.url.indexOf('?') + 1 || req.url.length);
      const { session, returnTo } = await sso.finish(query, ssoStateOf(req.headers.cookie), { ip: req.ip, userAgent: req.headers['user-agent'], via: 'console' });
      answerSession(reply, session, secure);
      return reply.redirect(returnTo, 302);
    } catch (err) {
      return refused(reply, err);
    }
  });
}
