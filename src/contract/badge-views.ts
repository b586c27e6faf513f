/** The public URL of a check's or group's badge: anyone with `url` sees the badge, and nothing else. */
export const PublicBadge = {
  $id: 'PublicBadge',
  type: 'object',
  required: ['token', 'url', 'checkId', 'groupId', 'created_at'],
  properties: {
    token: { type: 'string', description: 'The unguessable part of the URL' },
    url: { type: 'string', description: 'The badge without an API key (accepts style, theme and responseTime like the authenticated route)' },
    checkId: { type: ['string', 'null'], format: 'uuid' },
    groupId: { type: ['integer', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
  },
};

/** Schemas of this file registered as named components. */
export const BADGE_VIEW_SCHEMAS = [PublicBadge];
