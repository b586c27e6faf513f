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

/**
 * Scopes open now. On Node 20 an enabled AsyncLocalStorage costs every promise of the process a
 * hook (bench:rest measured 4–9 % of a read's throughput), so the storage is enabled only while a
 * scope is open — while a request that may write is in flight — and disabled when the last closes:
 * reads, and the runner between requests, pay nothing.
 */
let openScopes = 0;

/** An actor's scope: `run` code as it, `close` once its last write is done (once; later calls do nothing). */
export interface AuditScope {
  run<T>(fn: () => T): T;
  close(): void;
}

/** Opens a scope for `actor` (a request that may write); close it when the request is over. */
export function openAuditScope(actor: AuditActor): AuditScope {
  openScopes++;
  let open = true;
  return {
    run: (fn) => storage.run(actor, fn),
    close() {
      if (!open) return;
      open = false;
      if (--openScopes === 0) storage.disable();
    },
  };
}

/** How many scopes are open now (0 between requests: the storage is off). */
export function auditScopesOpen(): number {
  return openScopes;
}

/** Runs `fn` (and everything it starts) as `actor`, until the promise it answers settles. */
export async function runAsAuditActor<T>(actor: AuditActor, fn: () => Promise<T>): Promise<T> {
  const scope = openAuditScope(actor);
  try {
    return await scope.run(fn);
  } finally {
    scope.close();
  }
}

/**
 * Runs `fn` as the system: for work a request starts that outlives it or is not the caller's doing
 * (a run whose results change a check's state). Outside any actor's scope there is nothing to leave.
 */
export function runAsSystem<T>(fn: () => T): T {
  return storage.getStore() === undefined ? fn() : storage.run(undefined, fn);
}

/** The actor of the code running now; undefined outside a request (the system). */
export function currentAuditActor(): AuditActor | undefined {
  return storage.getStore();
}

/** The statement that names the actor inside a transaction (local to it: a pooled connection keeps nothing). */
export const SET_ACTOR_SQL = "SELECT set_config('lookout.actor', $1, true)";
