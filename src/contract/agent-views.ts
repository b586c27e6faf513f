import { DateTime, NullableDateTime } from './check-views.js';

const RunVariable = {
  type: 'object', required: ['key', 'value', 'secret'],
  properties: { key: { type: 'string' }, value: { type: 'string' }, secret: { type: 'boolean' } },
};

/** One run leased to an agent: everything it needs to run it, secrets included. */
export const AgentJob = {
  $id: 'AgentJob',
  type: 'object',
  description: 'A due run leased to the agent until leaseUntil (renew it while it runs)',
  required: ['jobId', 'slotAt', 'location', 'sequenceId', 'leaseUntil', 'check', 'variables', 'clientCertificates'],
  properties: {
    jobId: { type: 'string' },
    slotAt: DateTime,
    location: { type: 'string', description: 'Where it runs: the results are recorded in this location' },
    sequenceId: { type: 'string', format: 'uuid', description: 'Shared by the attempts of the run and its FINAL result' },
    leaseUntil: DateTime,
    check: {
      type: 'object', additionalProperties: true, required: ['id', 'accountId', 'checkType', 'name', 'data'],
      description: 'The check as it runs now (group settings and snippets applied)',
    },
    variables: { type: 'array', items: RunVariable, description: 'Environment variables of the run; secret ones are scrubbed from what the agent reports' },
    clientCertificates: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
};

export const AgentLeaseAnswer = {
  $id: 'AgentLeaseAnswer',
  type: 'object',
  required: ['jobs', 'leaseMs', 'renewMs'],
  properties: {
    jobs: { type: 'array', items: { $ref: 'AgentJob#' } },
    leaseMs: { type: 'integer', description: 'A lease lasts this long unless renewed' },
    renewMs: { type: 'integer', description: 'How often to renew leases (and report in)' },
  },
};

export const AgentRenewAnswer = {
  $id: 'AgentRenewAnswer',
  type: 'object',
  required: ['lost'],
  properties: { lost: { type: 'array', items: { type: 'string' }, description: 'Leases no longer held: stop those runs, their results are refused' } },
};

export const AgentResultAnswer = {
  $id: 'AgentResultAnswer',
  type: 'object',
  required: ['id', 'resultType'],
  properties: { id: { type: 'string' }, resultType: { type: 'string' } },
};

/** One live agent of a location. */
export const AgentView = {
  $id: 'Agent',
  type: 'object',
  required: ['id', 'version', 'hostname', 'concurrency', 'running', 'startedAt', 'lastSeen'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    version: { type: 'string' },
    hostname: { type: 'string' },
    concurrency: { type: 'integer' },
    running: { type: 'integer', description: 'Runs it had in flight when it last reported' },
    startedAt: DateTime,
    lastSeen: DateTime,
  },
};

/** `GET /v1/private-locations/{id}/metrics`. */
export const PrivateLocationMetrics = {
  $id: 'PrivateLocationMetrics',
  type: 'object',
  required: ['privateLocationId', 'lastSeen', 'agentCount', 'agents', 'queueSize', 'runningCount', 'oldestQueuedAt'],
  properties: {
    privateLocationId: { type: 'string', format: 'uuid' },
    lastSeen: NullableDateTime,
    agentCount: { type: 'integer', description: 'Agents that reported in the last 15 seconds' },
    agents: { type: 'array', items: { $ref: 'Agent#' } },
    queueSize: { type: 'integer', description: 'Runs queued for the location, not yet leased' },
    runningCount: { type: 'integer', description: 'Runs leased to its agents now' },
    oldestQueuedAt: { ...NullableDateTime, description: 'Planned time of the oldest queued run' },
  },
};

/** Schemas of this file registered as named components. */
export const AGENT_VIEW_SCHEMAS = [AgentJob, AgentLeaseAnswer, AgentRenewAnswer, AgentResultAnswer, AgentView, PrivateLocationMetrics];
