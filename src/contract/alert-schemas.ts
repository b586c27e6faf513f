import Type from 'typebox';
import { ALERT_TYPES } from '../domain/alert-state.js';
import { ALERT_CHANNEL_TYPES, CHECK_TYPES } from '../domain/catalog.js';
import { AlertChannelId } from './alert-channel-schemas.js';
import { Nullable, PageQuery } from './common.js';

/** A UNIX time in seconds (up to the year 9999). */
const UnixSeconds = Type.Integer({ minimum: 0, maximum: 253_402_300_799, description: 'UNIX time in seconds' });
const Uuid = Type.String({ format: 'uuid' });

const window = {
  from: Type.Optional({ ...UnixSeconds, description: 'Only records created at or after this UNIX time (seconds)' }),
  to: Type.Optional({ ...UnixSeconds, description: 'Only records created before this UNIX time (seconds); must be after from' }),
};

export const NOTIFICATION_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;

export const AlertNotificationListQuery = Type.Object(
  {
    ...PageQuery,
    ...window,
    alertChannelId: Type.Optional(AlertChannelId),
    checkId: Type.Optional(Uuid),
    status: Type.Optional(Type.Enum([...NOTIFICATION_STATUSES])),
    hasFailures: Type.Optional(Type.Boolean({ description: 'true: FAILED attempts only; false: the others' })),
  },
  { additionalProperties: false },
);

export const CheckAlertListQuery = Type.Object({ ...PageQuery, ...window, checkId: Type.Optional(Uuid) }, { additionalProperties: false });
export const CheckAlertForCheckQuery = Type.Object({ ...PageQuery, ...window }, { additionalProperties: false });
export const CheckAlertCheckParams = Type.Object({ checkId: Uuid }, { additionalProperties: false });

const DateTime = Type.String({ format: 'date-time' });

/** One delivery attempt of an alert to a channel. */
export const AlertNotificationView = Type.Object({
  id: Uuid,
  checkAlertId: Type.String({ description: 'The check alert delivered' }),
  alertChannelId: Nullable(Type.Integer({ description: 'null once the channel was deleted' })),
  type: Type.Enum([...ALERT_CHANNEL_TYPES], { description: 'Type of the channel' }),
  alertType: Type.Enum([...ALERT_TYPES]),
  checkId: Uuid,
  checkType: Type.Enum([...CHECK_TYPES]),
  checkResultId: Nullable(Type.String()),
  status: Type.Enum([...NOTIFICATION_STATUSES], { description: 'PENDING: waiting for its attempt (a retry is due at nextAttemptAt)' }),
  attempt: Type.Integer({ minimum: 1, description: '1 for the first attempt, 2 for the first retry...' }),
  error: Nullable(Type.String({ description: 'Why a FAILED attempt failed' })),
  responseStatus: Nullable(Type.Integer({ description: 'HTTP status (SMTP reply code for email) the receiver answered' })),
  notificationResult: Nullable(Type.String({ description: 'The start of what the receiver answered' })),
  timestamp: Nullable({ ...DateTime, description: 'When the attempt was made; null while PENDING' }),
  nextAttemptAt: Nullable(DateTime),
  created_at: DateTime,
});

/** One alert a check raised. */
export const CheckAlertView = Type.Object({
  id: Uuid,
  name: Type.String({ description: 'Name of the check when it alerted' }),
  checkId: Uuid,
  alertType: Type.Enum([...ALERT_TYPES]),
  checkType: Type.Enum([...CHECK_TYPES]),
  checkResultId: Nullable(Type.String({ description: 'The FINAL result the alert is about' })),
  runLocation: Nullable(Type.String()),
  responseTime: Nullable(Type.Number({ description: 'ms' })),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  isReminder: Type.Boolean(),
  reminderSequence: Nullable(Type.Integer({ description: '1 for the first reminder; null for other alerts' })),
  sslDaysRemaining: Nullable(Type.Integer({ description: 'ALERT_SSL: days until the certificate expires' })),
  startedAt: Nullable(DateTime),
  created_at: DateTime,
});
