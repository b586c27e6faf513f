import Type from 'typebox';

export const ErrorGroupIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/** Body of `PATCH /v1/error-groups/{id}`: at least one of the flags. */
export const ErrorGroupPatchBody = Type.Object(
  {
    archiveForEver: Type.Optional(Type.Boolean()),
    archivedUntilNextEvent: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
