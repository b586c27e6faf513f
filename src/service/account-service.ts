import { SELF_HOSTED_ADDONS } from '../domain/account-plan.js';
import { accountEntitlements } from '../domain/account-entitlements.js';
import { withAlertSettingsDefaults } from '../domain/check-defaults.js';
import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { AccountRow, KeyOwner as Principal, UserRow } from '../store/accounts-repository.js';
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

/** A user as `GET /v1/accounts/me/members` shows it: every user owns the account (there are no roles or invitations). */
export function toAccountMemberView(user: UserRow) {
  return {
    type: 'member' as const, accountId: user.account_id, userId: user.id, name: user.name, email: user.email, role: 'OWNER' as const,
    status: 'ACTIVE' as const, createdAt: user.created_at.toISOString(), updatedAt: user.created_at.toISOString(),
    isSupportMembership: false, ssoEnabled: false, mfaEnabled: false,
  };
}

/** The filters of `GET /v1/accounts/me/members` (the CLI's `members` flags). */
export interface MemberQuery {
  search?: string;
  type?: string;
  role?: string;
  status?: string;
  limit?: number;
  nextId?: string;
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
    list: async (principal: Principal) => [toAccountView(await own(principal.accountId))],
    me: async (principal: Principal) => toAccountView(await own(principal.accountId)),
    get: async (principal: Principal, accountId: string) => toAccountView(await ownById(principal, accountId)),
    nextList: async (principal: Principal) => [toNextAccountView(await own(principal.accountId))],
    nextGet: async (principal: Principal, accountId: string) => toNextAccountView(await ownById(principal, accountId)),

    /** The plan and entitlements `checkly account plan` shows. */
    async entitlements(principal: Principal) {
      const row = await own(principal.accountId);
      return { plan: row.plan, planDisplayName: row.plan_display_name, addons: SELF_HOSTED_ADDONS, ...accountEntitlements() };
    },

    /** The account's users as members, filtered like the hosted list; `nextId` is the last user id of the previous page. */
    async members(principal: Principal, query: MemberQuery) {
      const term = query.search?.toLowerCase();
      const all = (await store.accounts.users(principal.accountId)).map(toAccountMemberView).filter((m) =>
        (!term || m.email.toLowerCase().includes(term) || (m.name ?? '').toLowerCase().includes(term))
        && (!query.type || query.type === m.type) && (!query.role || query.role === m.role) && (!query.status || query.status === m.status));
      const start = query.nextId ? all.findIndex((m) => m.userId === query.nextId) + 1 : 0;
      if (query.nextId && start === 0) {
        throw new LookoutError('VALIDATION', '"nextId" is not a cursor of this list', { issues: [{ key: 'nextId', message: 'is unknown' }], source: 'query' });
      }
      const limit = query.limit ?? 50;
      const page = all.slice(start, start + limit);
      return { members: page, length: page.length, nextId: start + limit < all.length ? page.at(-1)!.userId : null };
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
     * The user behind the caller's key. A key made without a user (`lookout` CLI service keys)
     * acts for the account, so it answers with the account's first user, its owner.
     */
    async currentUser(principal: Principal) {
      const user = principal.userId ? await store.accounts.getUser(principal.userId) : await store.accounts.firstUser(principal.accountId);
      if (!user || user.account_id !== principal.accountId) throw notFound('User', principal.userId ?? 'of this API key');
      return { id: user.id, name: user.name, email: user.email };
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
