import { LookoutError } from '../domain/lookout-error.js';

/** Seconds a caller is told to wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket failures of the driver (Node errno codes): the server is unreachable, not the query wrong. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED',
]);

/**
 * SQLSTATEs of a server that is going away or not taking connections: 57P01 admin_shutdown
 * (a fast restart), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, recovering),
 * 53300 too_many_connections; the whole class 08 (connection exception) is matched by prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages of `pg` for a connection that broke without an errno or SQLSTATE. */
const CONNECTION_MESSAGES = /Connection terminated|connection error and is not queryable|not queryable|timeout exceeded when trying to connect|Query read timeout|database session ended|terminating connection/i;

/** SQLSTATE 53100 disk_full (PGlite raises it too when its folder's file system is full). */
const DISK_FULL = '53100';

interface DriverError {
  code?: unknown;
  message?: unknown;
  errno?: unknown;
}

/** Whether the database is unreachable (restart, failover, lost network) rather than the statement wrong. */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as DriverError;
  if (typeof code === 'string') {
    if (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    // Any other SQLSTATE is the server answering: it is there.
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  // AggregateError (several addresses refused) carries its parts.
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.some(isConnectionError)) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** Whether the database refused a write because its disk is full. */
export function isDiskFullError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code } = err as DriverError;
  return code === DISK_FULL || code === 'ENOSPC';
}

/**
 * Whether PostgreSQL rolled the transaction back for a conflict that running it again resolves:
 * 40P01 deadlock_detected, 40001 serialization_failure.
 */
export function isRetryableConflict(err: unknown): boolean {
  const code = err && typeof err === 'object' ? (err as DriverError).code : undefined;
  return code === '40P01' || code === '40001';
}

/**
 * The one place driver errors become coded store errors: an unreachable database is
 * DATABASE_UNAVAILABLE (503 with Retry-After at the edge), a full disk STORAGE_FULL (507) naming
 * the cause. Anything else is returned as it is. The driver error stays as `cause` for the logs.
 */
export function toStoreError(err: unknown): unknown {
  if (err instanceof LookoutError) return err;
  if (isDiskFullError(err)) {
    const cause = String((err as DriverError).message ?? 'no space left on device');
    return withCause(new LookoutError('STORAGE_FULL', `The database's disk is full (${cause}): nothing can be written until space is freed`, {
      attributes: { code: 'STORAGE_FULL', cause },
    }), err);
  }
  if (isConnectionError(err)) {
    return withCause(new LookoutError('DATABASE_UNAVAILABLE', 'The database is unavailable (restarting or unreachable); retry shortly', {
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
      attributes: { code: 'DATABASE_UNAVAILABLE', retryAfter: DATABASE_RETRY_AFTER_SECONDS },
    }), err);
  }
  return err;
}

function withCause(error: LookoutError, cause: unknown): LookoutError {
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false, configurable: true });
  return error;
}
