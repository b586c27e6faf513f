import Type from 'typebox';
import { ASSET_FILE_PATTERN } from '../domain/result-asset-files.js';

/** What an agent says of itself with every lease and renewal request. */
const AgentReportFields = {
  agentId: Type.String({ format: 'uuid', description: 'Chosen by the agent at start; the same for its whole life' }),
  version: Type.String({ minLength: 1, maxLength: 64 }),
  hostname: Type.String({ minLength: 1, maxLength: 255 }),
  concurrency: Type.Integer({ minimum: 1, maximum: 1000 }),
  running: Type.Integer({ minimum: 0, maximum: 1000 }),
};

/** Body of `POST /v1/agent/leases`: take up to `max` due runs, waiting up to `waitMs` for one. */
export const AgentLeaseRequest = Type.Object(
  {
    ...AgentReportFields,
    max: Type.Integer({ minimum: 0, maximum: 1000 }),
    waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 20_000, description: 'Long-poll: how long to wait for a due run when none is queued' })),
  },
  { additionalProperties: false },
);

/** Body of `POST /v1/agent/leases/renew`: the leases the agent still runs. */
export const AgentRenewRequest = Type.Object(
  { ...AgentReportFields, jobIds: Type.Array(Type.String({ pattern: '^[0-9]{1,18}$' }), { maxItems: 1000 }) },
  { additionalProperties: false },
);

/** Body of `POST /v1/agent/leave`. */
export const AgentLeaveRequest = Type.Object({ agentId: AgentReportFields.agentId }, { additionalProperties: false });

export const AgentJobParams = Type.Object({ jobId: Type.String({ pattern: '^[0-9]{1,18}$' }) }, { additionalProperties: false });
export const AgentAssetParams = Type.Object(
  { jobId: AgentJobParams.properties.jobId, file: Type.String({ pattern: ASSET_FILE_PATTERN }) },
  { additionalProperties: false },
);

const Timestamp = Type.String({ format: 'date-time' });
const Detail = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

/**
 * Body of `POST /v1/agent/jobs/{jobId}/results`: one attempt of the run, as the executor returned
 * it. Where it ran (the job's location) and which check it was come from the lease, not from here.
 */
export const AgentResultRequest = Type.Object(
  {
    agentId: AgentReportFields.agentId,
    /** The agent's clock when it sent the result: the service corrects the probe's times by the difference. */
    sentAt: Timestamp,
    sequenceId: Type.String({ format: 'uuid' }),
    attempts: Type.Integer({ minimum: 1, maximum: 100 }),
    resultType: Type.Union([Type.Literal('FINAL'), Type.Literal('ATTEMPT')]),
    probe: Type.Object(
      {
        startedAt: Timestamp,
        stoppedAt: Timestamp,
        responseTime: Type.Number({ minimum: 0 }),
        hasFailures: Type.Boolean(),
        hasErrors: Type.Boolean(),
        isDegraded: Type.Boolean(),
        overMaxResponseTime: Type.Boolean(),
        networkError: Type.Boolean(),
        errors: Type.Array(Type.Object({ code: Type.String({ maxLength: 200 }), message: Type.String() }, { additionalProperties: false }), { maxItems: 100 }),
        assertions: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 1000 }),
        apiCheckResult: Type.Optional(Detail),
        browserCheckResult: Type.Optional(Detail),
        multiStepCheckResult: Type.Optional(Detail),
        agenticCheckResult: Type.Optional(Detail),
        details: Type.Optional(Detail),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
