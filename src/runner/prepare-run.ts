import { applyGroupSettings } from '../domain/apply-group-settings.js';
import type { CheckType } from '../domain/catalog.js';
import type { CheckData } from '../domain/check-defaults.js';
import { withGroupDefaults } from '../domain/group-defaults.js';
import type { ScheduledCheckRow } from '../store/runner-repository.js';
import type { RunClientCertificate, RunnableCheck, RunVariable } from './executor.js';
import type { RunReads } from './run-reads.js';

/** Check types whose runs make HTTPS requests and so may present a client certificate. */
const HTTP_CHECK_TYPES = new Set(['API', 'URL']);

/** The check as it runs (group settings applied) and whether it should run at all. */
export function toRunnable(row: ScheduledCheckRow): RunnableCheck {
  const base = { ...row.data, name: row.name, checkType: row.check_type } as CheckData & { checkType: string };
  const data = row.group_data
    ? applyGroupSettings(base, withGroupDefaults({ ...row.group_data, name: row.group_name ?? '' }), row.group_subs ?? [])
    : base;
  return { id: row.id, accountId: row.account_id, checkType: row.check_type as CheckType, name: row.name, data, groupId: row.group_id };
}

/** A check with what its run needs from storage. */
export interface PreparedRun {
  check: RunnableCheck;
  variables: RunVariable[];
  /** The account's client certificates (API and URL checks only; empty for other types). */
  clientCertificates: RunClientCertificate[];
}

/**
 * Everything a run needs from storage: account variables (overridden by the check's and group's
 * own, already merged by applyGroupSettings), snippet scripts resolved into the setup and
 * teardown scripts (the snippet first, then the local script), and for HTTP checks the account's
 * client certificates, read per run so that a new or deleted one counts from the next run on.
 */
export async function prepareRun(reads: RunReads, check: RunnableCheck): Promise<PreparedRun> {
  const account = await reads.accountVariables(check.accountId);
  const own: RunVariable[] = (check.data.environmentVariables ?? []).map((v: { key: string; value: string; secret?: boolean }) => ({
    key: v.key,
    value: v.value,
    secret: v.secret ?? false,
  }));
  const ownKeys = new Set(own.map((v) => v.key));
  const variables = [...account.filter((v) => !ownKeys.has(v.key)), ...own];

  const data = { ...check.data };
  const snippetIds = [data.setupSnippetId, data.tearDownSnippetId].filter((id): id is number => typeof id === 'number');
  if (snippetIds.length > 0) {
    const scripts = await reads.snippetScripts(check.accountId, snippetIds);
    const join = (snippet: string | undefined, local: string | null | undefined) => [snippet, local].filter(Boolean).join('\n') || null;
    data.localSetupScript = join(scripts.get(data.setupSnippetId), data.localSetupScript);
    data.localTearDownScript = join(scripts.get(data.tearDownSnippetId), data.localTearDownScript);
  }
  const clientCertificates = HTTP_CHECK_TYPES.has(check.checkType) ? await reads.clientCertificates(check.accountId) : [];
  return { check: { ...check, data }, variables, clientCertificates };
}
