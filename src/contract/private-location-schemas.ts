import Type from 'typebox';
import { Nullable } from './common.js';
import { partialObject } from './check-schemas.js';

/** Slugs name private locations in checks and groups (`privateLocations`); lower-case DNS-label style. */
export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';

/** Body of `POST /v1/private-locations`. */
export const PrivateLocationCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
    slugName: Type.String({ pattern: SLUG_PATTERN }),
    icon: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    proxyUrl: Type.Optional(Nullable(Type.String({ format: 'uri', pattern: '^https?://[^/?#\\s]+', maxLength: 2048 }))),
  },
  { additionalProperties: false },
);

/** Body of `PUT /v1/private-locations/{id}`: the fields given replace the stored ones. */
export const PrivateLocationUpdate = partialObject(PrivateLocationCreate);

export const PrivateLocationIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const PrivateLocationKeyParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), keyId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
