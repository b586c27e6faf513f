import Type from 'typebox';
import { BADGE_STYLES, BADGE_THEMES } from '../domain/render-badge.js';
import { createBadgeService, type BadgeOptions } from '../service/badge-service.js';
import type { Api, ApiContext } from './api-context.js';
import { nonJson, responses } from '../contract/route-responses.js';

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

/** `/v1/badges/...`: SVG status badges (errors stay JSON). */
export function badgesRoutes(app: Api, { store }: ApiContext): void {
  const badges = createBadgeService({ store });

  app.get('/v1/badges/checks/:checkId', {
    schema: {
      operationId: 'getCheckBadge', tags, summary: 'Status badge of a check', description: DESCRIPTION, querystring: BadgeQuery, response: SVG,
      params: Type.Object({ checkId: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
    },
  }, async (req, reply) => {
    const svg = await badges.check(req.principal.accountId, req.params.checkId, req.query as BadgeOptions);
    return reply.type('image/svg+xml').header('Cache-Control', 'no-cache').send(svg);
  });

  app.get('/v1/badges/groups/:groupId', {
    schema: {
      operationId: 'getCheckGroupBadge', tags, summary: 'Status badge of a check group (the worst of its activated checks)', description: DESCRIPTION,
      querystring: BadgeQuery, response: SVG,
      params: Type.Object({ groupId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }, { additionalProperties: false }),
    },
  }, async (req, reply) => {
    const svg = await badges.group(req.principal.accountId, req.params.groupId, req.query as BadgeOptions);
    return reply.type('image/svg+xml').header('Cache-Control', 'no-cache').send(svg);
  });
}
