import Type from 'typebox';

export const SnippetCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 2048 }), script: Type.String({ maxLength: 1_000_000 }) },
  { additionalProperties: false },
);

/** Update: the fields given replace the stored ones. */
export const SnippetUpdate = Type.Object(
  { name: Type.Optional(SnippetCreate.properties.name), script: Type.Optional(SnippetCreate.properties.script) },
  { additionalProperties: false },
);

export const SnippetId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
