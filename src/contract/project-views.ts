import { ref } from './response-shape.js';

const DateTime = { type: 'string', format: 'date-time' };
const NullableDateTime = { type: ['string', 'null'], format: 'date-time' };

/** One line of a deploy diff, as `checkly deploy --preview` prints it. */
export const ProjectDiffEntry = {
  $id: 'ProjectDiffEntry',
  type: 'object',
  description: 'What a deploy does to one resource of the project, by its logical id',
  required: ['type', 'logicalId', 'physicalId', 'action'],
  properties: {
    type: { type: 'string', description: 'check, check-group, alert-channel or alert-channel-subscription' },
    logicalId: { type: 'string' },
    physicalId: { type: ['string', 'null'], description: 'The id of the resource in its own API (null until created, and for subscriptions)' },
    action: { type: 'string', enum: ['CREATE', 'UPDATE', 'DELETE', 'DETACHED'] },
  },
};

/** The answer of a dry run, and the result of a finished deployment. */
export const ProjectDiff = {
  $id: 'ProjectDiff',
  type: 'object',
  description: 'The changes of a deploy or destroy, resource by resource',
  required: ['diff'],
  properties: { diff: { type: 'array', items: ref('ProjectDiffEntry') } },
};

/** A deployment (or destroy) of a project, with its outcome. */
export const ProjectDeployment = {
  $id: 'ProjectDeployment',
  type: 'object',
  description: 'A deployment or destroy of a project: RUNNING, then SUCCEEDED (with `result.diff`) or FAILED (with `error.message`)',
  required: ['id', 'projectLogicalId', 'kind', 'status', 'result', 'error', 'created_at', 'finished_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    projectLogicalId: { type: 'string' },
    kind: { type: 'string', enum: ['DEPLOY', 'DESTROY'] },
    status: { type: 'string', enum: ['RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] },
    result: { anyOf: [ref('ProjectDiff'), { type: 'null' }] },
    error: { anyOf: [{ type: 'object', required: ['message'], properties: { message: { type: 'string' } } }, { type: 'null' }] },
    created_at: DateTime,
    finished_at: NullableDateTime,
  },
};

/** A monitoring-as-code project. */
export const Project = {
  $id: 'Project',
  type: 'object',
  description: 'A monitoring-as-code project: the resources `checkly deploy` manages under its logical id',
  required: ['id', 'logicalId', 'name', 'repoUrl', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'integer' },
    logicalId: { type: 'string' },
    name: { type: 'string' },
    repoUrl: { type: ['string', 'null'] },
    created_at: DateTime,
    updated_at: NullableDateTime,
  },
};

export const PROJECT_VIEW_SCHEMAS = [
  ProjectDiffEntry,
  ProjectDiff,
  ProjectDeployment,
  Project,
  { $id: 'ProjectList', type: 'array', items: ref('Project'), description: 'Every project of the account, oldest first (unpaginated)' },
];
