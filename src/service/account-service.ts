import { SELF_HOSTED_ADDONS } from '../domain/account-plan.js';
import { accountEntitlements } from '../domain/account-entitlements.js';
import { withAlertSettingsDefaults } from '../domain/check-defaults.js';
import { notFound } from '../domain/lookout-error.js';
import type { Principal } from '../domain/principal.js';
import type { AccountRow } from '../store/accounts-repository.js';
import type { Store } from '../store/create-store.js';

/** An account as `/v1/accounts` shows it. */
export function toAccountView(row: AccountRow) {
  return {
    id: row.id,
    name: row.name,
    runtimeId: row.runtime_id,
    plan: row.plan,
    planDisplayName: row.plan_display_name,
    addons: SELF_HOSTED_ADDONS,
    settings: row.settings,
    alertSettings: withAlertSettingsDefaults(row.alert_settings),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * The account as `/next/accounts` shows it (what CLIs read before anything else). `features`
 * lists feature flags of the hosted service; a self-hosted installation has none to switch.
 */
export function toNextAccountView(row: AccountRow) {
  return {
    id: row.id,
    name: row.name,
    runtimeId: row.runtime_id,
    plan: row.plan,
    planDisplayName: row.plan_display_name,
    addons: SELF_HOSTED_ADDONS,
    features: [] as string[],
  };
}

/** What `PUT /v1/accounts/me` accepts. */
export interface AccountUpdateInput {
  name?: string;
  runtimeId?: string;
  alertSettings?: Record<string, any>;
}

/** The caller's own account and user. A key only ever sees its own account: any other id is unknown. */
export function createAccountService({ store }: { store: Store }) {
  const own = async (accountId: string) => {
    const row = await store.accounts.get(accountId);
    if (!row) throw notFound('Account', accountId);
    return row;
  };
  /** Another account's id answers like an unknown id, so ids of other accounts cannot be probed. */
  const ownById = async (principal: Principal, accountId: string) => {
    if (accountId !== principal.accountId) throw notFound('Account', accountId);
    return own(accountId);
  };

  return {
    /** The caller's account; for a person, every account they belong to (the current one first). */
    list: async (principal: Principal) => {
      const ids = principal.userId && principal.sessionId
        ? [principal.accountId, ...(await store.people.membershipsOf(principal.userId)).map((m) => m.account_id).filter((id) => id !== principal.accountId)]
        : [principal.accountId];
      return (await store.accounts.getMany(ids)).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)).map(toAccountView);
    },
    me: async (principal: Principal) => toAccountView(await own(principal.accountId)),
    get: async (principal: Principal, accountId: string) => toAccountView(await ownById(principal, accountId)),
    nextList: async (principal: Principal) => [toNextAccountView(await own(principal.accountId))],
    nextGet: async (principal: Principal, accountId: string) => toNextAccountView(await ownById(principal, accountId)),

    /** The plan and entitlements `checkly account plan` shows. */
    async entitlements(principal: Principal) {
      const row = await own(principal.accountId);
      return { plan: row.plan, planDisplayName: row.plan_display_name, addons: SELF_HOSTED_ADDONS, ...accountEntitlements() };
    },

    /**
     * Updates the caller's account. Sent alertSettings are merged over the stored ones key by key,
     * then completed with the defaults, so a partial object keeps what it does not mention.
     */
    async update(principal: Principal, body: AccountUpdateInput) {
      return store.transaction(async (repos) => {
        const row = await repos.accounts.get(principal.accountId);
        if (!row) throw notFound('Account', principal.accountId);
        const alertSettings = body.alertSettings
          ? withAlertSettingsDefaults({ ...withAlertSettingsDefaults(row.alert_settings), ...body.alertSettings })
          : undefined;
        const updated = await repos.accounts.update(principal.accountId, { name: body.name, runtimeId: body.runtimeId, alertSettings });
        return toAccountView(updated!);
      });
    },

    /**
     * The person behind the caller (`checkly whoami`). A service key acts for no person, so it
     * answers with the account's first owner, as the hosted service answers for its account keys.
     */
    async currentUser(principal: Principal) {
      const user = principal.userId ? await store.accounts.getUser(principal.userId) : await store.accounts.firstUser(principal.accountId);
      if (!user) throw notFound('User', principal.userId ?? 'of this API key');
      return { id: user.id, name: user.name, email: user.email };
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
