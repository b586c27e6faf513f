import { ALERT_CHANNEL_CONFIG_SCHEMAS, SubscriptionInput, SubscriptionInputList } from '../contract/alert-channel-schemas.js';
import { validateBody } from '../contract/validation.js';
import { alertChannelConfigIssues, subscriptionTargetIssues } from '../domain/alert-channel-rules.js';
import { mergeAlertChannelSettings, type AlertChannelSettings } from '../domain/alert-channel-settings.js';
import { hideLockedValues } from '../domain/alert-channel-locked-entries.js';
import { maskedSecrets, resolveSecretsOnUpdate, splitSecrets, withSecrets } from '../domain/alert-channel-secrets.js';
import { ALERT_CHANNEL_CONFIG_SHAPES } from '../domain/alert-channel-config-shapes.js';
import type { AlertChannelType } from '../domain/catalog.js';
import { mergeUpdate, withDefaults } from '../domain/merge-update.js';
import { LookoutError, assertValid, notFound, type Issue } from '../domain/lookout-error.js';
import type { AlertChannelRow, AlertChannelWrite, ChannelSubscription } from '../store/alert-channels-repository.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';

/** A stored channel as the API shows it: secret config fields masked or null, locked values null. */
export function toAlertChannelView(row: AlertChannelRow): Record<string, any> {
  const { config, ...settings } = row.data;
  return {
    id: row.id,
    type: row.type,
    config: { ...hideLockedValues(row.type as AlertChannelType, config), ...row.masked_secrets },
    subscriptions: row.subs,
    ...mergeAlertChannelSettings(settings),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}

/** A config validated against its type's schema and rules; keys in errors start with `config.`. */
function acceptConfig(type: AlertChannelType, config: unknown): Record<string, any> {
  const valid = validateBody<Record<string, any>>(ALERT_CHANNEL_CONFIG_SCHEMAS[type], structuredClone(config), 'config');
  const accepted = withDefaults(valid, ALERT_CHANNEL_CONFIG_SHAPES[type]);
  assertValid(alertChannelConfigIssues(type, accepted));
  return accepted;
}

function toWrite(type: AlertChannelType, config: Record<string, any>, settings: AlertChannelSettings): AlertChannelWrite {
  const split = splitSecrets(type, config);
  return { data: { config: split.config, ...settings }, secrets: split.secrets, maskedSecrets: maskedSecrets(type, split.secrets) };
}

/** Settings as a body carries them: null or left out means "not given". */
type SettingsInput = Partial<Record<keyof AlertChannelSettings, boolean | number | null>>;

type SubscriptionEntry = { checkId?: string | null; groupId?: number | null; activated: boolean };

/** Entries naming checks or groups the account does not have. */
async function missingTargetIssues(repos: Repositories, accountId: string, entries: { entry: SubscriptionEntry; prefix: string }[]): Promise<Issue[]> {
  const checkIds = entries.flatMap(({ entry }) => (entry.checkId != null ? [entry.checkId] : []));
  const groupIds = entries.flatMap(({ entry }) => (entry.groupId != null ? [entry.groupId] : []));
  const checks = new Set(
    checkIds.length ? (await repos.checks.list(accountId, { ids: checkIds }, 1, checkIds.length)).rows.map((r) => r.id) : [],
  );
  const groups = await repos.references.groups(accountId, groupIds);
  const issues: Issue[] = [];
  for (const { entry, prefix } of entries) {
    if (entry.checkId != null && !checks.has(entry.checkId)) issues.push({ key: `${prefix}checkId`, message: `check ${entry.checkId} does not exist` });
    if (entry.groupId != null && !groups.has(String(entry.groupId))) issues.push({ key: `${prefix}groupId`, message: `check group ${entry.groupId} does not exist` });
  }
  return issues;
}

/** Alert channels: CRUD with per-type configs and secrets, and their check and group subscriptions. */
export function createAlertChannelService({ store }: { store: Store }) {
  const read = async (repos: Repositories, accountId: string, id: number) => {
    const row = await repos.alertChannels.get(accountId, id);
    if (!row) throw notFound('Alert channel', id);
    return toAlertChannelView(row);
  };

  return {
    async create(accountId: string, body: { type: AlertChannelType; config: unknown } & SettingsInput) {
      const config = acceptConfig(body.type, body.config);
      const id = await store.alertChannels.insert(accountId, body.type, toWrite(body.type, config, mergeAlertChannelSettings(body)));
      return read(store, accountId, id);
    },

    /**
     * Merges `body` into the channel: settings absent or null keep their values, and a config sent
     * merges over the stored one key by key (merge-update.ts); secrets and locked values follow
     * resolveSecretsOnUpdate (left out, null or sent masked: kept).
     */
    async update(accountId: string, id: number, body: { type?: AlertChannelType | null; config?: unknown } & SettingsInput) {
      return store.transaction(async (repos) => {
        const row = await repos.alertChannels.getWithSecrets(accountId, id);
        if (!row) throw notFound('Alert channel', id);
        const type = row.type as AlertChannelType;
        if (body.type != null && body.type !== type) {
          throw new LookoutError('VALIDATION', `"type" cannot change: alert channel ${id} is a ${type} channel`, {
            issues: [{ key: 'type', message: `must be ${type}` }],
            source: 'payload',
          });
        }
        const { config: storedConfig, ...storedSettings } = row.data;
        const storedFull = withSecrets(type, storedConfig, row.secrets);
        const config = body.config != null
          ? acceptConfig(type, mergeUpdate(storedFull, resolveSecretsOnUpdate(type, body.config as Record<string, any>, row.secrets, storedConfig), ALERT_CHANNEL_CONFIG_SHAPES[type] ?? {}))
          : storedFull;
        const settings = mergeAlertChannelSettings(body, mergeAlertChannelSettings(storedSettings));
        await repos.alertChannels.update(accountId, id, toWrite(type, config, settings));
        return read(repos, accountId, id);
      });
    },

    get: (accountId: string, id: number) => read(store, accountId, id),

    async list(accountId: string, page: number, limit: number, ids?: number[]) {
      const { rows, total } = await store.alertChannels.list(accountId, page, limit, ids);
      return { items: rows.map(toAlertChannelView), total };
    },

    async delete(accountId: string, id: number): Promise<void> {
      if (!(await store.alertChannels.delete(accountId, id))) throw notFound('Alert channel', id);
    },

    /**
     * Subscribes checks or groups to the channel, or (de)activates their subscriptions. Takes one
     * entry or a list; answers in the same form. All entries are written or none.
     */
    async updateSubscriptions(accountId: string, id: number, rawBody: unknown): Promise<ChannelSubscription | ChannelSubscription[]> {
      const isList = Array.isArray(rawBody);
      const list = isList
        ? validateBody<SubscriptionEntry[]>(SubscriptionInputList, rawBody)
        : [validateBody<SubscriptionEntry>(SubscriptionInput, rawBody ?? {})];
      const entries = list.map((entry, i) => ({ entry, prefix: isList ? `${i}.` : '' }));
      assertValid(subscriptionTargetIssues(entries.map(({ entry, prefix }) => ({ target: entry, prefix }))));
      const saved = await store.transaction(async (repos) => {
        if (!(await repos.alertChannels.get(accountId, id))) throw notFound('Alert channel', id);
        assertValid(await missingTargetIssues(repos, accountId, entries));
        const out: ChannelSubscription[] = [];
        for (const { entry } of entries) {
          const target = entry.checkId != null ? { checkId: entry.checkId } : { groupId: entry.groupId! };
          out.push(await repos.alertChannels.upsertSubscription(accountId, id, target, entry.activated));
        }
        return out;
      });
      return isList ? saved : saved[0]!;
    },
  };
}
export type AlertChannelService = ReturnType<typeof createAlertChannelService>;
