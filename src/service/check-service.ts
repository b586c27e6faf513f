import { randomUUID } from 'node:crypto';
import { CHECK_CREATE_SCHEMAS, CHECK_UPDATE_SCHEMAS } from '../contract/check-schemas.js';
import { validateBody } from '../contract/validation.js';
import { applyGroupSettings } from '../domain/apply-group-settings.js';
import type { CheckType } from '../domain/catalog.js';
import { mergeCheckUpdate, stripServerOwnedFields, withCheckDefaults, type CheckData } from '../domain/check-defaults.js';
import { agenticCheckIssues } from '../domain/agentic-check-issues.js';
import { checkRuleIssues } from '../domain/check-rules.js';
import { monitorToolIssues } from './monitor-tool-issues.js';
import { withGroupDefaults } from '../domain/group-defaults.js';
import { LookoutError, assertValid, notFound, type Issue } from '../domain/lookout-error.js';
import type { CheckFilter } from '../store/checks-repository.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';
import type { CheckRow } from '../store/checks-repository.js';
import type { GroupRow } from '../store/check-groups-repository.js';
import { checkColumnsFor, redactVariables, toCheckView, toSparseCheckView } from './check-view.js';
import { dedupeSubscriptions, referenceIssues } from './reference-issues.js';
import { keepActivated } from '../domain/keep-activated.js';
import type { Logger } from 'pino';
import type { EventBus } from '../events/event-bus.js';
import { createRetentionRepository } from '../store/retention-repository.js';
import { deleteAssetFiles } from './asset-files.js';
import { codeBundleIssues, storageDirOf } from './code-bundle-issues.js';

/**
 * A check as it runs in its group. `alertChannels` is left out: it describes the check's own
 * subscriptions, which the group's replace.
 */
function inGroupView(row: CheckRow, group: GroupRow): Record<string, any> {
  const { alertChannels: _own, ...view } = toCheckView(row);
  const applied = applyGroupSettings({ ...view, name: row.name, checkType: row.check_type }, withGroupDefaults({ ...group.data, name: group.name }), group.subs);
  return { ...applied, environmentVariables: redactVariables(applied.environmentVariables) };
}

/** How the check service is set up. */
export interface CheckServiceOptions {
  store: Store;
  /** Base URL of this service as clients reach it (heartbeat ping URLs are built from it). */
  publicUrl: string;
  /** Folder of run assets: a deleted check's screenshots go with it (absent: left to the orphan sweep). */
  assetsDir?: string;
  /**
   * Folder of uploaded files: a Playwright check suite must name a code bundle stored there
   * (default: `checkly-storage` in `assetsDir`; neither: not checked).
   */
  storageDir?: string;
  logger?: Logger;
  /** Where `publicContentChanged` goes when a deleted check was on a status page; none in unit uses. */
  bus?: EventBus;
  /** Whether this server has a model for agentic checks (config `agentic`); without one AGENTIC checks are refused. */
  agenticModelConfigured?: boolean;
}

/** The check's group must exist in the account too, besides the references groups share. */
async function checkReferenceIssues(repos: Repositories, accountId: string, c: CheckData, subs: { alertChannelId: number }[] | null): Promise<Issue[]> {
  const issues: Issue[] = [];
  if (c.groupId != null && !(await repos.references.groups(accountId, [c.groupId])).has(String(c.groupId))) {
    issues.push({ key: 'groupId', message: `check group ${c.groupId} does not exist` });
  }
  return [...issues, ...(await referenceIssues(repos, accountId, c, subs))];
}

/** Create, read, update and delete checks, with every rule of the spec applied. */
export function createCheckService({ store, publicUrl, assetsDir, storageDir, logger, bus, agenticModelConfigured = false }: CheckServiceOptions) {
  const bundlesDir = storageDir ?? (assetsDir ? storageDirOf(assetsDir) : undefined);
  async function readView(repos: Repositories, accountId: string, id: string) {
    const row = await repos.checks.get(accountId, id);
    if (!row) throw notFound('Check', id);
    return toCheckView(row);
  }

  return {
    async create(accountId: string, type: CheckType, rawBody: unknown, opts: { autoAssignAlerts?: boolean } = {}) {
      const body = stripServerOwnedFields(validateBody<Record<string, any>>(CHECK_CREATE_SCHEMAS[type], rawBody));
      const data = withCheckDefaults(type, body as CheckData, publicUrl);
      assertValid([...checkRuleIssues(type, data), ...agenticCheckIssues(type, body, agenticModelConfigured)]);
      assertValid(monitorToolIssues(type));
      assertValid(await codeBundleIssues(bundlesDir, accountId, type, data));
      const id = randomUUID();
      return store.transaction(async (repos) => {
        const subs = body.alertChannelSubscriptions ? dedupeSubscriptions(body.alertChannelSubscriptions) : null;
        assertValid(await checkReferenceIssues(repos, accountId, data, subs));
        await repos.checks.insert(accountId, { id, checkType: type, data });
        if (subs) await repos.subscriptions.replaceFor(accountId, { checkId: id }, subs);
        else if (opts.autoAssignAlerts !== false) {
          await repos.subscriptions.addMissing(accountId, { checkId: id }, await repos.references.allAlertChannelIds(accountId));
        }
        // Channels marked autoSubscribe take every new check, whatever the request said.
        await repos.subscriptions.addMissing(accountId, { checkId: id }, await repos.references.autoSubscribeChannelIds(accountId));
        return readView(repos, accountId, id);
      });
    },

    /** Updates a check; `type` is the typed route's type, or undefined for the generic route. */
    async update(accountId: string, id: string, type: CheckType | undefined, rawBody: unknown, opts: { autoAssignAlerts?: boolean } = {}) {
      return store.transaction(async (repos) => {
        const row = await repos.checks.get(accountId, id);
        if (!row) throw notFound('Check', id);
        const stored = row.check_type as CheckType;
        const sentType = (rawBody as Record<string, unknown> | null)?.checkType;
        if ((type && type !== stored) || (sentType != null && sentType !== stored)) {
          throw new LookoutError('VALIDATION', `"checkType" cannot change: check ${id} is a ${stored} check`, {
            issues: [{ key: 'checkType', message: `must be ${stored}` }],
            source: 'payload',
          });
        }
        const body = stripServerOwnedFields(validateBody<Record<string, any>>(CHECK_UPDATE_SCHEMAS[stored], rawBody ?? {}));
        const merged = withCheckDefaults(stored, mergeCheckUpdate(stored, row.data as CheckData, body), publicUrl);
        // The merged check must still be a valid whole check.
        validateBody(CHECK_CREATE_SCHEMAS[stored], structuredClone(merged));
        assertValid([...checkRuleIssues(stored, merged), ...agenticCheckIssues(stored, { ...merged, agentRuntime: body.agentRuntime }, agenticModelConfigured)]);
        assertValid(monitorToolIssues(stored));
        assertValid(await codeBundleIssues(bundlesDir, accountId, stored, merged));
        // A list sent replaces the subscriptions ([] removes them all); null or absent leaves them.
        const subs = body.alertChannelSubscriptions ? dedupeSubscriptions(keepActivated(body.alertChannelSubscriptions, row.subs)) : null;
        assertValid(await checkReferenceIssues(repos, accountId, merged, subs));
        await repos.checks.update(accountId, id, merged);
        if (subs) await repos.subscriptions.replaceFor(accountId, { checkId: id }, subs);
        else if (body.alertChannelSubscriptions === undefined && opts.autoAssignAlerts === true) {
          await repos.subscriptions.addMissing(accountId, { checkId: id }, await repos.references.allAlertChannelIds(accountId));
        }
        return readView(repos, accountId, id);
      });
    },

    /**
     * Replaces a check whole, as `checkly deploy` does (absent fields take their defaults, `groupId:
     * null` leaves the group): validated as a create, the id and a heartbeat's ping token kept.
     */
    async replace(accountId: string, id: string, type: CheckType, rawBody: unknown) {
      const body = stripServerOwnedFields(validateBody<Record<string, any>>(CHECK_CREATE_SCHEMAS[type], rawBody));
      return store.transaction(async (repos) => {
        const row = await repos.checks.get(accountId, id);
        if (!row) throw notFound('Check', id);
        if (row.check_type !== type) {
          throw new LookoutError('VALIDATION', `"checkType" cannot change: check ${id} is a ${row.check_type} check`, {
            issues: [{ key: 'checkType', message: `must be ${row.check_type}` }],
            source: 'payload',
          });
        }
        const token = (row.data as CheckData).heartbeat?.pingToken;
        const input = type === 'HEARTBEAT' && token ? { ...body, heartbeat: { ...body.heartbeat, pingToken: token } } : body;
        const data = withCheckDefaults(type, input as CheckData, publicUrl);
        assertValid([...checkRuleIssues(type, data), ...agenticCheckIssues(type, body, agenticModelConfigured)]);
        assertValid(monitorToolIssues(type));
        assertValid(await codeBundleIssues(bundlesDir, accountId, type, data));
        const subs = body.alertChannelSubscriptions ? dedupeSubscriptions(keepActivated(body.alertChannelSubscriptions, row.subs)) : null;
        assertValid(await checkReferenceIssues(repos, accountId, data, subs));
        await repos.checks.update(accountId, id, data);
        if (subs) await repos.subscriptions.replaceFor(accountId, { checkId: id }, subs);
        return readView(repos, accountId, id);
      });
    },

    /** A check; with `fields` (checked names, id among them) only those fields, read without the rest. */
    async get(accountId: string, id: string, fields?: readonly string[]) {
      const row = await store.checks.get(accountId, id, fields && checkColumnsFor(fields));
      if (!row) throw notFound('Check', id);
      return fields ? toSparseCheckView(row, fields) : toCheckView(row);
    },

    /** A page of checks; `fields` as in get. */
    async list(accountId: string, filter: CheckFilter, page: number, limit: number, fields?: readonly string[]) {
      const { rows, total } = await store.checks.list(accountId, filter, page, limit, fields && checkColumnsFor(fields));
      return { items: rows.map((r) => (fields ? toSparseCheckView(r, fields) : toCheckView(r))), total };
    },

    async delete(accountId: string, id: string): Promise<void> {
      // Read before the results cascade away; a run stored in between leaves an orphan for the sweep.
      const assets = assetsDir ? await createRetentionRepository(store.db).assetsOfCheck(accountId, id) : [];
      // A check a status page service is built from changes what the page shows: its version moves
      // on in the same transaction, so no page serves the deleted check's state a minute longer.
      const shownVersion = await store.transaction(async (tx) => {
        const version = await tx.publicContentVersions.bumpIfCheckShown(accountId, id);
        if (!(await tx.checks.delete(accountId, id))) throw notFound('Check', id);
        return version;
      });
      if (shownVersion !== null && bus) {
        await bus.publish({ type: 'publicContentChanged', accountId, version: shownVersion, subject: 'check', subjectId: id })
          .catch((err) => logger?.warn({ err, accountId, checkId: id }, 'checks: could not publish that a deleted check left a status page'));
      }
      if (assetsDir && assets.length) await deleteAssetFiles(assetsDir, assets, logger);
    },

    /** Checks of a group with the group's settings applied (see applyGroupSettings). */
    async listInGroup(accountId: string, groupId: number, page: number, limit: number) {
      const group = await store.groups.get(accountId, groupId);
      if (!group) throw notFound('Check group', groupId);
      const { rows, total } = await store.checks.list(accountId, { groupId }, page, limit);
      return { items: rows.map((r) => inGroupView(r, group)), total };
    },

    async getInGroup(accountId: string, groupId: number, checkId: string) {
      const group = await store.groups.get(accountId, groupId);
      if (!group) throw notFound('Check group', groupId);
      const row = await store.checks.get(accountId, checkId);
      if (!row || row.group_id !== groupId) throw notFound(`Check in group ${groupId}:`, checkId);
      return inGroupView(row, group);
    },
  };
}
export type CheckService = ReturnType<typeof createCheckService>;
