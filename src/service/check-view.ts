import type { CheckColumns, CheckRow, SubscriptionWithChannel } from '../store/checks-repository.js';
import { pickFields } from './pick-fields.js';

/** Environment variables as they may be read back: a secret's value is null. */
export function redactVariables<T extends { secret?: boolean; value?: unknown }>(vars: T[] | null | undefined): T[] | null {
  if (!vars) return vars ?? null;
  return vars.map((v) => (v.secret ? { ...v, value: null } : v));
}

/** The `alertChannels` object returned on checks: the public config of each activated channel, by type. */
export function alertChannelsOf(subs: SubscriptionWithChannel[]) {
  const out = { email: [] as object[], webhook: [] as object[], slack: [] as object[], sms: [] as object[] };
  for (const s of subs) {
    if (!s.activated) continue;
    const c = s.config ?? {};
    if (s.type === 'EMAIL') out.email.push({ address: c.address });
    if (s.type === 'WEBHOOK') {
      out.webhook.push({ url: c.url, name: c.name, method: c.method, headers: c.headers ?? [], queryParameters: c.queryParameters ?? [] });
    }
    if (s.type === 'SLACK') out.slack.push({ url: c.url });
    if (s.type === 'SMS') out.sms.push({ number: c.number, name: c.name });
  }
  return out;
}

/** A stored check as the API shows it. */
export function toCheckView(row: CheckRow): Record<string, any> {
  const { environmentVariables, ...data } = row.data;
  return {
    id: row.id,
    checkType: row.check_type,
    ...data,
    ...(environmentVariables !== undefined ? { environmentVariables: redactVariables(environmentVariables) } : {}),
    alertChannelSubscriptions: row.subs.map((s) => ({ alertChannelId: s.alertChannelId, activated: s.activated })),
    alertChannels: alertChannelsOf(row.subs),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}

/** Fields of a check view that come from columns or subscriptions rather than from keys of `data`. */
const NON_DATA_FIELDS = new Set(['id', 'checkType', 'created_at', 'updated_at', 'alertChannelSubscriptions', 'alertChannels']);

/** What to read of a check row to show only `fields` (see CheckColumns). */
export function checkColumnsFor(fields: readonly string[]): CheckColumns {
  return {
    dataKeys: fields.filter((f) => !NON_DATA_FIELDS.has(f)),
    subs: fields.includes('alertChannels') ? 'channels' : fields.includes('alertChannelSubscriptions') ? 'ids' : 'none',
  };
}

/** Only the named fields of a check's view (`fields=`); a field the check does not have stays absent, as in the whole view. */
export function toSparseCheckView(row: CheckRow, fields: readonly string[]): Record<string, any> {
  return pickFields(toCheckView(row), fields);
}
