import Type from 'typebox';
import { CHECK_TYPES } from '../domain/catalog.js';
import { IntId, Nullable } from './common.js';

const DateTime = Type.String({ format: 'date-time' });
const Uuid = Type.String({ format: 'uuid' });

/** A trigger token as it appears in a trigger URL. */
export const TriggerToken = Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });

export const CheckGroupTriggerParams = Type.Object({ groupId: IntId }, { additionalProperties: false });
export const CheckGroupTriggerUrlParams = Type.Object({ groupId: IntId, token: TriggerToken }, { additionalProperties: false });

/** The trigger token of a check group and the public URL that runs the group. */
export const CheckGroupTriggerView = Type.Object({
  id: Type.Integer(),
  groupId: Type.Integer(),
  token: Type.String(),
  url: Type.String({ description: 'GET or POST it, without an API key, to run the group\'s activated checks' }),
  called_at: Nullable(DateTime),
  created_at: DateTime,
  updated_at: Nullable(DateTime),
});

/** What one check of a triggered group did. */
export const GroupRunCheckView = Type.Object({
  checkId: Uuid,
  name: Type.String(),
  checkType: Type.Enum([...CHECK_TYPES]),
  sequenceId: Nullable(Type.String({ description: 'null when the check did not run' })),
  results: Type.Array(
    Type.Object({}, { additionalProperties: true, description: 'A FINAL result, as /v2/check-results shows it' }),
    { description: 'One FINAL result per location the check ran in; empty when it did not run' },
  ),
  error: Nullable(Type.Object(
    { code: Type.String(), message: Type.String() },
    { description: 'Why the check did not run (e.g. it has nowhere to run); null when it ran' },
  )),
});

/** The answer of a group trigger: every activated check of the group, in run order. */
export const GroupRunView = Type.Object({
  groupId: Type.Integer(),
  checks: Type.Array(GroupRunCheckView),
});
