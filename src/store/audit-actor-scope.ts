import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActor } from '../domain/audit-actor.js';

/**
 * The actor of the code running now, for the audit log. The API sets it around each authenticated
 * request (api/audit-actor-hook.ts); the Db implementations hand it to the database in every
 * transaction that writes (`set_config('lookout.actor', …, true)`), where the audit trigger reads it.
 * Nothing passes it along by hand, so no repository or service can forget it. The runner and the
 * jobs run outside any request, so their changes are the system's.
 */
const storage = new AsyncLocalStorage<AuditActor | undefined>();

/** Runs `fn` (and everything it starts) as `actor`. */
export function runAsAuditActor<T>(actor: AuditActor, fn: () => T): T {
  return storage.run(actor, fn);
}

/**
 * Runs `fn` as the system: for work a request starts that outlives it or is not the caller's doing
 * (a run whose results change a check's state).
 */
export function runAsSystem<T>(fn: () => T): T {
  return storage.run(undefined, fn);
}

/** The actor of the code running now; undefined outside a request (the system). */
export function currentAuditActor(): AuditActor | undefined {
  return storage.getStore();
}

/** The statement that names the actor inside a transaction (local to it: a pooled connection keeps nothing). */
export const SET_ACTOR_SQL = "SELECT set_config('lookout.actor', $1, true)";
