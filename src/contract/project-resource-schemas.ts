import Type from 'typebox';
import { SUPPORTED_RESOURCE_TYPES } from '../domain/plan-deployment.js';
import { PageQuery } from './common.js';

/** Physical ids one reverse lookup takes at most: one GraphQL batch. */
export const MAX_LOOKUP_IDS = 100;

const ResourceType = Type.Enum([...SUPPORTED_RESOURCE_TYPES], { description: 'A resource type a deploy reconciles (check, check-group, alert-channel, …)' });

/** Query of `GET /v1/projects`: offset pagination. */
export const ProjectListQuery = Type.Object(PageQuery, { additionalProperties: false });

/** Query of `GET /v1/projects/{logicalId}/resources`: optionally one type. */
export const ProjectResourcesQuery = Type.Object({ type: Type.Optional(ResourceType) }, { additionalProperties: false });

/** Query of `GET /v1/project-resources`: one type and up to 100 physical ids (repeated or comma-separated). */
export const ProjectResourceLookupQuery = Type.Object(
  {
    type: ResourceType,
    physicalId: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1, maxItems: MAX_LOOKUP_IDS, description: `Ids of the resources in their own API, repeated or comma-separated, at most ${MAX_LOOKUP_IDS}`,
    }),
  },
  { additionalProperties: false },
);
