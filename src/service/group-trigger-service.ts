import type { Logger } from 'pino';
import type { CheckType } from '../domain/catalog.js';
import { isLookoutError, notFound } from '../domain/lookout-error.js';
import type { Runner } from '../runner/create-runner.js';
import type { CheckGroupTriggerRow, GroupCheckRow } from '../store/check-group-triggers-repository.js';
import type { Store } from '../store/create-store.js';

/** Checks of a group run at once when the group says nothing (the API's default). */
export const DEFAULT_GROUP_CONCURRENCY = 3;

/** What one check of a triggered group did: its FINAL results, or why it did not run. */
export interface GroupRunCheck {
  checkId: string;
  name: string;
  checkType: CheckType;
  sequenceId: string | null;
  results: Record<string, any>[];
  error: { code: string; message: string } | null;
}

/** Options of the group trigger service. */
export interface GroupTriggerServiceOptions {
  store: Store;
  runner: Runner;
  logger: Logger;
  /** Base of the public trigger URLs. */
  publicUrl: string;
}

/** A group's trigger token as the API shows it, with its public URL. */
export function toCheckGroupTriggerView(row: CheckGroupTriggerRow, publicUrl: string) {
  return {
    id: row.id,
    groupId: row.group_id,
    token: row.token,
    url: `${publicUrl.replace(/\/$/, '')}/check-groups/${row.group_id}/trigger/${row.token}`,
    called_at: row.called_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}

/**
 * Check group triggers: one token per group, and the run it starts. A run takes the group's
 * activated checks (none when the group itself is deactivated) in groupOrder, runs at most the
 * group's `concurrency` of them at once through the runner's run-now (the same runs as a check's
 * own trigger), and answers per check. A check that cannot run (nowhere to run, a heartbeat) is
 * reported with the error's code instead of failing the others.
 */
export function createGroupTriggerService(options: GroupTriggerServiceOptions) {
  const { store, runner, logger, publicUrl } = options;

  async function runOne(accountId: string, check: GroupCheckRow): Promise<GroupRunCheck> {
    const entry = { checkId: check.id, name: check.name, checkType: check.check_type as CheckType };
    if (check.check_type === 'HEARTBEAT') {
      return { ...entry, sequenceId: null, results: [], error: { code: 'NOT_RUNNABLE', message: 'Heartbeat checks are not run: they pass when their job pings /ping/{token}' } };
    }
    try {
      const outcome = await runner.runNow(accountId, check.id);
      return { ...entry, sequenceId: outcome.sequenceId, results: outcome.finals, error: null };
    } catch (err) {
      if (isLookoutError(err)) return { ...entry, sequenceId: null, results: [], error: { code: err.code, message: err.message } };
      logger.error({ err, checkId: check.id }, 'group trigger run failed');
      return { ...entry, sequenceId: null, results: [], error: { code: 'INTERNAL', message: 'The run failed unexpectedly' } };
    }
  }

  return {
    /** Creates the group's token, or answers the existing one. */
    async create(accountId: string, groupId: number) {
      if (!(await store.groups.get(accountId, groupId))) throw notFound('Check group', groupId);
      return toCheckGroupTriggerView(await store.checkGroupTriggers.upsert(accountId, groupId), publicUrl);
    },

    async get(accountId: string, groupId: number) {
      const row = await store.checkGroupTriggers.get(accountId, groupId);
      if (!row) throw notFound('Trigger of check group', groupId);
      return toCheckGroupTriggerView(row, publicUrl);
    },

    async delete(accountId: string, groupId: number): Promise<void> {
      if (!(await store.checkGroupTriggers.delete(accountId, groupId))) throw notFound('Trigger of check group', groupId);
    },

    /** Runs the group of a public trigger URL; 404 for a token that is not this group's. */
    async run(groupId: number, token: string): Promise<{ groupId: number; checks: GroupRunCheck[] }> {
      const accountId = await store.checkGroupTriggers.call(groupId, token);
      if (!accountId) throw notFound('Trigger', token);
      return this.runNow(accountId, groupId);
    },

    /** Runs a group of the account now (its activated checks, at most its concurrency at once). */
    async runNow(accountId: string, groupId: number): Promise<{ groupId: number; checks: GroupRunCheck[] }> {
      const group = await store.groups.get(accountId, groupId);
      if (!group) throw notFound('Check group', groupId);
      const checks = group.activated ? (await store.checkGroupTriggers.checksOf(accountId, groupId)).filter((c) => c.activated) : [];
      const concurrency = Math.max(1, Number(group.data.concurrency) || DEFAULT_GROUP_CONCURRENCY);
      const outcomes: GroupRunCheck[] = new Array(checks.length);
      let next = 0;
      const worker = async () => {
        while (next < checks.length) {
          const i = next++;
          outcomes[i] = await runOne(accountId, checks[i]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, checks.length) }, worker));
      return { groupId, checks: outcomes };
    },
  };
}
export type GroupTriggerService = ReturnType<typeof createGroupTriggerService>;
