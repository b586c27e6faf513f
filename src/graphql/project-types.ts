/** REST payloads of projects as the GraphQL layer receives them (codegen mappers). */
import type { components } from '../contract/__generated__/openapi.js';

/** A project (`GET /v1/projects/{logicalId}`); the graph knows it by its logical id. */
export type RestProject = components['schemas']['Project'];

/** A resource of a project (`GET /v1/projects/{logicalId}/resources`). */
export type RestProjectResource = components['schemas']['ProjectResource'];

/** A resource and the project owning it (`GET /v1/project-resources`): the parent of `ProjectMembership`. */
export type RestProjectResourceOwner = components['schemas']['ProjectResourceOwner'];

/** A resource of a project, carrying its project so `ProjectResource.project` costs nothing. */
export type ProjectResourceParent = RestProjectResource & { project: RestProject };
