import type { Resolvers } from '../__generated__/resolvers-types.js';
import { CHECK_TYPE_NAMES } from '../check-type-name.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { toGlobalId } from '../global-id.js';
import { markNodeType, type NodeType } from '../node-type.js';
import { ownerKey } from '../project-loaders.js';
import type { ProjectResourceParent, RestProject } from '../project-types.js';
import { ALERT_CHANNEL_TYPE_NAMES, alertChannelNodeTypes } from './alert-channel-resolvers.js';
import { dashboardNodeTypes } from './dashboard-resolvers.js';
import { maintenanceNodeTypes } from './maintenance-resolvers.js';
import { privateLocationNodeTypes } from './private-location-resolvers.js';
import { coreNodeTypes } from './query-resolvers.js';
import { statusPageIncidentNodeTypes } from './status-page-incident-resolvers.js';
import { statusPageNodeTypes } from './status-page-resolvers.js';

/** Node types of this module: projects, refetched by logical id. */
export const projectNodeTypes: NodeType[] = [
  {
    idType: 'Project',
    fetch: (ctx, restId) => ctx.loaders.projects.projectByLogicalId.load(restId),
    typeName: () => 'Project',
  },
];

/**
 * The node type (global id type) of each project resource type that is a node of the graph; the
 * others (subscriptions, private location assignments) are links between nodes.
 */
const RESOURCE_ID_TYPES: Record<string, string> = {
  check: 'Check', 'check-group': 'CheckGroup', 'alert-channel': 'AlertChannel', 'private-location': 'PrivateLocation',
  'maintenance-window': 'MaintenanceWindow', 'status-page': 'StatusPage', 'status-page-service': 'StatusPageService', dashboard: 'Dashboard',
};

// Resources are read the way node(id) reads them, through the loaders of their own modules.
const RESOURCE_NODE_TYPES = new Map([
  ...coreNodeTypes, ...alertChannelNodeTypes, ...privateLocationNodeTypes, ...maintenanceNodeTypes,
  ...statusPageNodeTypes, ...statusPageIncidentNodeTypes, ...dashboardNodeTypes,
].map((t) => [t.idType, t]));

async function resourceNode(r: ProjectResourceParent, ctx: GraphqlContext): Promise<unknown> {
  const nodeType = RESOURCE_NODE_TYPES.get(RESOURCE_ID_TYPES[r.type] ?? '');
  if (!nodeType || !r.physicalId) return null;
  const value = await nodeType.fetch(ctx, r.physicalId);
  return value ? markNodeType(value, nodeType.typeName(value)) : null;
}

/** `project` of a resource of project type `type`, its REST id read by `idOf`: one batched lookup. */
function membership<T>(type: string, idOf: (parent: T) => string | number) {
  return (parent: T, _args: unknown, ctx: GraphqlContext) => ctx.loaders.projects.ownerOf.load(ownerKey(type, idOf(parent)));
}

const checkProject = membership<{ id: string }>('check', (c) => c.id);
const channelProject = membership<{ id: number }>('alert-channel', (c) => c.id);

/** Projects: the type, one by logical id, the offset list, resources both ways. */
export const projectResolvers: Resolvers = {
  Project: {
    id: (p) => toGlobalId('Project', p.logicalId),
    createdAt: (p) => p.created_at,
    updatedAt: (p) => p.updated_at,
    resources: async (p, { type }, ctx) => {
      const resources = (await ctx.loaders.projects.resourcesOf.load(p.logicalId)) ?? [];
      return resources.filter((r) => type == null || r.type === type).map((r) => ({ ...r, project: p }));
    },
  },
  ProjectResource: {
    nodeId: (r) => (r.physicalId && RESOURCE_ID_TYPES[r.type] ? toGlobalId(RESOURCE_ID_TYPES[r.type]!, r.physicalId) : null),
    node: (r, _args, ctx) => resourceNode(r, ctx) as never,
  },
  Query: {
    project: (_root, { logicalId }, ctx) => ctx.loaders.projects.projectByLogicalId.load(logicalId),
    projects: (_root, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestProject[]>('/v1/projects', { page, limit });
        for (const p of res.body) ctx.loaders.projects.projectByLogicalId.prime(p.logicalId, p);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
  },
  CheckGroup: { project: membership('check-group', (g) => g.id) },
  PrivateLocation: { project: membership('private-location', (l) => l.id) },
  MaintenanceWindow: { project: membership('maintenance-window', (w) => w.id) },
  StatusPage: { project: membership('status-page', (p) => p.id) },
  StatusPageService: { project: membership('status-page-service', (s) => s.id) },
  Dashboard: { project: membership('dashboard', (d) => d.dashboardId) },
  ...Object.fromEntries(Object.values(CHECK_TYPE_NAMES).map((name) => [name, { project: checkProject }])),
  ...Object.fromEntries(Object.values(ALERT_CHANNEL_TYPE_NAMES).map((name) => [name, { project: channelProject }])),
};
