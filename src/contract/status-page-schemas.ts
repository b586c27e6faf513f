import Type from 'typebox';
import { DEFAULT_THEMES, THEME_COLOR_KEYS, THEME_COLOR_PATTERN } from '../domain/status-page-theme.js';
import { Nullable } from './common.js';

const Uuid = Type.String({ format: 'uuid' });
/** Optional, and null means the same as absent (or, where said, clears). */
const opt = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** Limits of status pages (service-api.md "Limits" for the description; ours otherwise). */
export const STATUS_PAGE_LIMITS = {
  name: 255,
  urlSlug: 63,
  description: 500,
  customDomain: 253,
  link: 2048,
  cards: 100,
  cardName: 255,
  servicesPerCard: 100,
  passwordMin: 8,
  passwordMax: 256,
} as const;

export const StatusPageParams = Type.Object({ statusPageId: Uuid }, { additionalProperties: false });

const Colour = Type.String({ pattern: THEME_COLOR_PATTERN, maxLength: 7, description: '#RGB or #RRGGBB, upper or lower case' });
/** One mode's colours: any key may be left out (the page's defaults fill it). */
const Palette = Type.Object(Object.fromEntries(THEME_COLOR_KEYS.map((key) => [key, opt(Colour)])), { additionalProperties: false });
const ThemeColors = Type.Object({ light: opt(Palette), dark: opt(Palette) }, { additionalProperties: false });

const Link = (what: string) => Type.String({ maxLength: STATUS_PAGE_LIMITS.link, description: `${what}: an absolute http or https URL; "" or null: none` });

/** A card on write: its name and services; a read's `id` and `statusPageId` may be sent back. */
const Card = Type.Object({
  id: opt(Type.String({ format: 'uuid', description: 'On update: one of this page\'s cards, kept (its id and created_at); absent: a new card. Ignored on create' })),
  statusPageId: opt(Type.String({ format: 'uuid', description: 'On update: this page\'s id. Ignored on create' })),
  name: Type.String({ minLength: 1, maxLength: STATUS_PAGE_LIMITS.cardName, pattern: '\\S' }),
  services: opt(Type.Array(Type.Object({ id: Uuid }, { additionalProperties: false }), {
    maxItems: STATUS_PAGE_LIMITS.servicesPerCard, description: 'Services of this account, each once per card, in the order shown',
  })),
}, { additionalProperties: false });

/** Body of `POST /v1/status-pages` and `PUT /v1/status-pages/{statusPageId}`. */
export const StatusPageBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: STATUS_PAGE_LIMITS.name, pattern: '\\S' }),
  url: Type.String({
    minLength: 1, maxLength: STATUS_PAGE_LIMITS.urlSlug,
    description: 'The page\'s slug, unique across all accounts: lower-case letters, digits and inner hyphens (like a subdomain)',
  }),
  cards: Type.Array(Card, { maxItems: STATUS_PAGE_LIMITS.cards, description: 'The cards in the order shown; on update they replace the stored ones' }),
  description: opt(Type.String({ maxLength: STATUS_PAGE_LIMITS.description })),
  customDomain: opt(Type.String({
    maxLength: STATUS_PAGE_LIMITS.customDomain,
    description: 'A host name serving the page, unique across all accounts; stored lower-cased. "" or null: none',
  })),
  themeColors: opt(ThemeColors),
  logo: opt(Link('Logo image')),
  logoDark: opt(Link('Logo image in dark mode')),
  favicon: opt(Link('Favicon')),
  redirectTo: opt(Link('Where the logo leads')),
  defaultTheme: opt(Type.Enum([...DEFAULT_THEMES], { description: 'Default AUTO (the visitor\'s system preference)' })),
  isPrivate: opt(Type.Boolean({ description: 'Visitors need the page password (default false)' })),
  password: opt(Type.String({
    minLength: STATUS_PAGE_LIMITS.passwordMin, maxLength: STATUS_PAGE_LIMITS.passwordMax,
    description: 'Write-only: the shared password of a private page. Never read back; a new one ends every visitor session',
  })),
}, { additionalProperties: false });

export type StatusPageBodyType = Type.Static<typeof StatusPageBody>;
