import { DEFAULT_THEMES, THEME_COLOR_KEYS } from '../domain/status-page-theme.js';
import { ref } from './response-shape.js';

const DateTime = { type: 'string', format: 'date-time' };
const NullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const NullableString = { type: ['string', 'null'] };

/** One mode's colours, as sent (keys left out are filled by the page's defaults). */
export const StatusPageThemePalette = {
  $id: 'StatusPageThemePalette',
  type: 'object',
  description: 'The colours of one mode, each #RGB or #RRGGBB as sent',
  properties: Object.fromEntries(THEME_COLOR_KEYS.map((key) => [key, { type: 'string' }])),
};

/** A page's colours per mode (the real API's `StatusPageThemeColors`). */
export const StatusPageThemeColors = {
  $id: 'StatusPageThemeColors',
  type: 'object',
  description: 'The colours of a status page in light and dark mode',
  properties: {
    light: { anyOf: [ref('StatusPageThemePalette'), { type: 'null' }] },
    dark: { anyOf: [ref('StatusPageThemePalette'), { type: 'null' }] },
  },
};

/** A card of a status page, with the services it shows. */
export const StatusPageCard = {
  $id: 'StatusPageCard',
  type: 'object',
  description: 'A card of a status page: services shown together, in order',
  required: ['id', 'name', 'services', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    services: { type: 'array', items: ref('StatusPageService') },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** A status page (`/v1/status-pages/{statusPageId}`); never its password. */
export const StatusPage = {
  $id: 'StatusPage',
  type: 'object',
  description: 'A status page: cards of services, its look, and whether visitors need its password',
  required: [
    'id', 'accountId', 'name', 'url', 'description', 'customDomain', 'themeColors', 'logo', 'logoDark', 'favicon', 'redirectTo',
    'defaultTheme', 'isPrivate', 'whiteLabel', 'projectBindings', 'cards', 'created_at', 'updated_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    accountId: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    url: { type: 'string', description: 'The page\'s slug, unique across all accounts' },
    description: NullableString,
    customDomain: { type: ['string', 'null'], description: 'Lower-cased host name, unique across all accounts' },
    themeColors: { anyOf: [ref('StatusPageThemeColors'), { type: 'null' }], description: 'As sent; null when never set' },
    logo: NullableString,
    logoDark: NullableString,
    favicon: NullableString,
    redirectTo: NullableString,
    defaultTheme: { type: 'string', enum: [...DEFAULT_THEMES] },
    isPrivate: { type: 'boolean' },
    whiteLabel: { type: 'boolean', description: 'Always false: every page shows that it runs on Lookout' },
    projectBindings: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Always empty: Lookout has no projects' },
    cards: { type: 'array', items: ref('StatusPageCard') },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

/** A page of `GET /v1/status-pages`. */
export const StatusPagePage = {
  $id: 'StatusPagePage',
  type: 'object',
  description: 'Status pages, newest first; nextId null on the last page',
  required: ['length', 'entries', 'nextId'],
  properties: {
    length: { type: 'integer' },
    entries: { type: 'array', items: ref('StatusPage') },
    nextId: { type: ['string', 'null'] },
  },
};

/** Schemas of this file registered as named components, in dependency order (after StatusPageService). */
export const STATUS_PAGE_VIEW_SCHEMAS = [StatusPageThemePalette, StatusPageThemeColors, StatusPageCard, StatusPage, StatusPagePage];
