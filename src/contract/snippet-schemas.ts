import Type from 'typebox';
import { Nullable } from './common.js';

const Script = Type.String({ maxLength: 1_000_000 });

export const SnippetCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 2048 }), script: Script },
  { additionalProperties: false },
);

/** Update: the fields given replace the stored ones; left out or null, they are kept. */
export const SnippetUpdate = Type.Object(
  { name: Type.Optional(Nullable(SnippetCreate.properties.name)), script: Type.Optional(Nullable(Script)) },
  { additionalProperties: false },
);

export const SnippetId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
