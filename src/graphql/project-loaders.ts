import DataLoader from 'dataloader';
import { getOrNull } from './get-or-null.js';
import type { RestProject, RestProjectResource, RestProjectResourceOwner } from './project-types.js';
import type { RestSession } from './rest-client.js';

/** Per-operation loaders of projects. */
export interface ProjectLoaders {
  /** Projects by logical id; null when unknown or of another account. */
  projectByLogicalId: DataLoader<string, RestProject | null>;
  /** The resources of a project by its logical id; null when the project is unknown or of another account. */
  resourcesOf: DataLoader<string, RestProjectResource[] | null>;
  /** The project owning a resource, by `ownerKey(type, physicalId)`; null when no project of the account manages it. */
  ownerOf: DataLoader<string, RestProjectResourceOwner | null>;
}

/** Largest batch of the reverse lookup route (`GET /v1/project-resources` takes at most 100 ids). */
const MAX_LOOKUP = 100;

/** The key of `ownerOf`: uuids are matched without regard to case, so keys are lower-case. */
export const ownerKey = (type: string, physicalId: string | number): string => `${type}\n${String(physicalId).toLowerCase()}`;

// An id the lookup route would refuse (empty, too long, or split at its comma) names no resource.
const lookable = (id: string) => id.length > 0 && id.length <= 64 && !id.includes(',');

/**
 * Projects by logical id are single GETs, each made once per operation (the list connection and the
 * reverse lookup prime them). The reverse lookup is batched: every resource of an operation asking for
 * its project shares one `GET /v1/project-resources` call per resource type.
 */
export function createProjectLoaders(rest: RestSession): ProjectLoaders {
  const projectByLogicalId = new DataLoader<string, RestProject | null>((keys) =>
    Promise.all(keys.map((k) => getOrNull<RestProject>(rest, `/v1/projects/${encodeURIComponent(k)}`))));
  const resourcesOf = new DataLoader<string, RestProjectResource[] | null>((keys) =>
    Promise.all(keys.map((k) => getOrNull<RestProjectResource[]>(rest, `/v1/projects/${encodeURIComponent(k)}/resources`))));
  const ownerOf = new DataLoader<string, RestProjectResourceOwner | null>(async (keys) => {
    const idsByType = new Map<string, string[]>();
    for (const key of keys) {
      const [type, id] = key.split('\n') as [string, string];
      if (!lookable(id)) continue;
      idsByType.set(type, [...(idsByType.get(type) ?? []), id]);
    }
    const found = new Map<string, RestProjectResourceOwner>();
    await Promise.all([...idsByType].map(async ([type, physicalId]) => {
      const res = await rest.get<RestProjectResourceOwner[]>('/v1/project-resources', { type, physicalId });
      for (const owner of res.body) {
        found.set(ownerKey(type, owner.physicalId), owner);
        projectByLogicalId.prime(owner.project.logicalId, owner.project);
      }
    }));
    return keys.map((k) => found.get(k) ?? null);
  }, { maxBatchSize: MAX_LOOKUP });
  return { projectByLogicalId, resourcesOf, ownerOf };
}
