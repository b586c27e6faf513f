import { ref } from './response-shape.js';

/** A resource a project owns, by the logical id its code gives it. */
export const ProjectResource = {
  $id: 'ProjectResource',
  type: 'object',
  description: 'A resource a monitoring-as-code project manages',
  required: ['type', 'logicalId', 'physicalId'],
  properties: {
    type: { type: 'string', description: 'check, check-group, alert-channel, alert-channel-subscription, maintenance-window, status-page, …' },
    logicalId: { type: 'string', description: 'The id the project\'s code gives the resource' },
    physicalId: { type: ['string', 'null'], description: 'The id of the resource in its own API (null for links without one, such as subscriptions)' },
  },
};

/** A resource and the project owning it: an answer of the reverse lookup. */
export const ProjectResourceOwner = {
  $id: 'ProjectResourceOwner',
  type: 'object',
  description: 'Which project owns a resource, and under which logical id',
  required: ['type', 'physicalId', 'logicalId', 'project'],
  properties: {
    type: { type: 'string' },
    physicalId: { type: 'string', description: 'The id of the resource in its own API, as stored' },
    logicalId: { type: 'string', description: 'The id the project\'s code gives the resource' },
    project: ref('Project'),
  },
};

export const PROJECT_RESOURCE_VIEW_SCHEMAS = [
  ProjectResource,
  ProjectResourceOwner,
  { $id: 'ProjectResourceList', type: 'array', items: ref('ProjectResource'), description: 'The resources of a project, by type then logical id (unpaginated)' },
  {
    $id: 'ProjectResourceOwnerList', type: 'array', items: ref('ProjectResourceOwner'),
    description: 'The owners of the resources asked for, in the order asked; resources no project of the account owns are left out',
  },
  { $id: 'ProjectPage', type: 'array', items: ref('Project'), description: 'Projects of the account, oldest first; offset pagination, the total in Content-Range' },
];
