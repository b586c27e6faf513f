import Type from 'typebox';
import { Nullable } from './common.js';

/** Slugs name private locations in checks and groups (`privateLocations`); lower-case DNS-label style. */
export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

const ProxyUrl = Type.String({ format: 'uri', pattern: '^https?://[^/?#\\s]+', maxLength: 2048 });

/** Body of `POST /v1/private-locations`; `icon` and `proxyUrl` left out, null or "" are none (null). */
export const PrivateLocationCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
    slugName: Type.String({ pattern: SLUG_PATTERN }),
    icon: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    proxyUrl: Type.Optional(Nullable(Type.Union([ProxyUrl, Type.Literal('')]))),
  },
  { additionalProperties: false },
);

/**
 * Body of `PUT /v1/private-locations/{id}`: the fields given replace the stored ones; left out or
 * null, they are kept ("" removes an icon or proxy URL).
 */
export const PrivateLocationUpdate = Type.Object(
  {
    name: Type.Optional(Nullable(PrivateLocationCreate.properties.name)),
    slugName: Type.Optional(Nullable(PrivateLocationCreate.properties.slugName)),
    icon: PrivateLocationCreate.properties.icon,
    proxyUrl: PrivateLocationCreate.properties.proxyUrl,
  },
  { additionalProperties: false },
);

export const PrivateLocationIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const PrivateLocationKeyParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), keyId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
