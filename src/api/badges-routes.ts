import Type from 'typebox';
import { BADGE_STYLES, BADGE_THEMES } from '../domain/render-badge.js';
import { createBadgeService, type BadgeOptions } from '../service/badge-service.js';
import { publicSecurityHeaders } from './public-security-headers.js';
import type { Api, ApiContext } from './api-context.js';
import { NO_CONTENT, nonJson, responses } from '../contract/route-responses.js';
import { ref } from '../contract/response-shape.js';

const tags = ['Badges'];
const BadgeQuery = Type.Object(
  {
    style: Type.Optional(Type.Enum([...BADGE_STYLES], { default: 'flat' })),
    theme: Type.Optional(Type.Enum([...BADGE_THEMES], { default: 'default' })),
    responseTime: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
const SVG = responses({ 200: nonJson('The badge', ['image/svg+xml']) });
const DESCRIPTION = 'An SVG image: the name, then passing, degraded, failing or unknown (never ran), or with responseTime=true '
  + 'the latest response time in ms. theme=light|dark changes the label colour only.';

const CheckParams = Type.Object({ checkId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
const GroupParams = Type.Object({ groupId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }, { additionalProperties: false });
const PUBLIC_DESCRIPTION = 'Public badge URLs are opt-in: the URL carries an unguessable token and shows the badge, and nothing else, '
  + 'without an API key (for READMEs). Creating keeps an existing URL; deleting revokes it (404 from then on), and a new one can be made.';

/** `/v1/badges/...`: SVG status badges (errors stay JSON); `/badges/{token}`: the public ones. */
export function badgesRoutes(app: Api, { store, config }: ApiContext): void {
  const badges = createBadgeService({ store, publicUrl: config.publicUrl });

  app.get('/v1/badges/checks/:checkId', {
    schema: {
      operationId: 'getCheckBadge', tags, summary: 'Status badge of a check', description: DESCRIPTION, querystring: BadgeQuery, response: SVG,
      params: Type.Object({ checkId: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
    },
  }, async (req, reply) => {
    const svg = await badges.check(req.principal.accountId, req.params.checkId, req.query as BadgeOptions);
    return publicSecurityHeaders(reply, 'svg').type('image/svg+xml').header('Cache-Control', 'no-cache').send(svg);
  });

  app.get('/v1/badges/groups/:groupId', {
    schema: {
      operationId: 'getCheckGroupBadge', tags, summary: 'Status badge of a check group (the worst of its activated checks)', description: DESCRIPTION,
      querystring: BadgeQuery, response: SVG,
      params: Type.Object({ groupId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }, { additionalProperties: false }),
    },
  }, async (req, reply) => {
    const svg = await badges.group(req.principal.accountId, req.params.groupId, req.query as BadgeOptions);
    return publicSecurityHeaders(reply, 'svg').type('image/svg+xml').header('Cache-Control', 'no-cache').send(svg);
  });

  for (const [kind, params, subject, name] of [
    ['checks', CheckParams, (p: Record<string, unknown>) => ({ checkId: String(p.checkId) }), 'Check'],
    ['groups', GroupParams, (p: Record<string, unknown>) => ({ groupId: Number(p.groupId) }), 'CheckGroup'],
  ] as const) {
    const url = `/v1/badges/${kind}/:${kind === 'checks' ? 'checkId' : 'groupId'}/public`;
    const of = kind === 'checks' ? 'a check' : 'a check group';
    app.post(url, {
      schema: {
        operationId: `create${name}PublicBadge`, tags, summary: `Publish the badge of ${of} at a public URL`, description: PUBLIC_DESCRIPTION,
        params, response: responses({ 201: ref('PublicBadge') }),
      },
    }, async (req, reply) => reply.code(201).send(await badges.publish(req.principal.accountId, subject(req.params))));
    app.get(url, {
      schema: {
        operationId: `get${name}PublicBadge`, tags, summary: `The public badge URL of ${of}`, description: PUBLIC_DESCRIPTION,
        params, response: responses({ 200: ref('PublicBadge') }),
      },
    }, async (req) => badges.publicUrl(req.principal.accountId, subject(req.params)));
    app.delete(url, {
      schema: {
        operationId: `delete${name}PublicBadge`, tags, summary: `Revoke the public badge URL of ${of}`, description: PUBLIC_DESCRIPTION,
        params, response: responses({ 204: NO_CONTENT }),
      },
    }, async (req, reply) => {
      await badges.unpublish(req.principal.accountId, subject(req.params));
      return reply.code(204).send();
    });
  }

  app.get('/badges/:token', {
    schema: {
      operationId: 'getPublicBadge', tags, summary: 'A published badge (no API key)', description: `${DESCRIPTION} An unknown or revoked token answers 404.`,
      querystring: BadgeQuery, response: responses({ 200: nonJson('The badge', ['image/svg+xml']) }),
      params: Type.Object({ token: Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) }, { additionalProperties: false }),
    },
    config: { public: true } as never,
  }, async (req, reply) => {
    const svg = await badges.byToken(req.params.token, req.query as BadgeOptions);
    // Image proxies (GitHub's camo) cache by these: a minute keeps a README's badge near live.
    return publicSecurityHeaders(reply, 'svg').type('image/svg+xml').header('Cache-Control', 'public, max-age=60').send(svg);
  });
}
