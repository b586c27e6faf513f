import type { Issue } from '../domain/lookout-error.js';
import type { Repositories } from '../store/repositories.js';

/** A subscription as a body sends it; `activated` defaults to true. */
export interface SubscriptionBody {
  alertChannelId: number;
  activated?: boolean;
}

/** One subscription per channel (the last one sent wins), `activated` filled in. */
export function dedupeSubscriptions(subs: SubscriptionBody[]): { alertChannelId: number; activated: boolean }[] {
  const byChannel = new Map<number, boolean>();
  for (const s of subs) byChannel.set(s.alertChannelId, s.activated ?? true);
  return [...byChannel].map(([alertChannelId, activated]) => ({ alertChannelId, activated }));
}

/**
 * Ids a check or group names that must exist in the same account: alert channels, setup and
 * teardown snippets, private location slugs. Keys are the dotted paths the client sent.
 */
export async function referenceIssues(
  repos: Repositories,
  accountId: string,
  doc: Record<string, any>,
  subs: { alertChannelId: number }[] | null,
): Promise<Issue[]> {
  const issues: Issue[] = [];
  const r = repos.references;
  if (subs?.length) {
    const found = await r.alertChannels(accountId, subs.map((s) => s.alertChannelId));
    subs.forEach((s, i) => {
      if (!found.has(String(s.alertChannelId))) {
        issues.push({ key: `alertChannelSubscriptions.${i}.alertChannelId`, message: `alert channel ${s.alertChannelId} does not exist` });
      }
    });
  }
  for (const key of ['setupSnippetId', 'tearDownSnippetId']) {
    if (doc[key] != null && !(await r.snippets(accountId, [doc[key]])).has(String(doc[key]))) {
      issues.push({ key, message: `snippet ${doc[key]} does not exist` });
    }
  }
  const serviceId = doc.triggerIncident?.serviceId;
  if (typeof serviceId === 'string' && !(await r.statusPageServices(accountId, [serviceId])).has(serviceId.toLowerCase())) {
    issues.push({ key: 'triggerIncident.serviceId', message: `status page service ${serviceId} does not exist` });
  }
  const slugs: string[] = doc.privateLocations ?? [];
  if (slugs.length) {
    const found = await r.privateLocationSlugs(accountId, slugs);
    slugs.forEach((s, i) => {
      if (!found.has(s)) issues.push({ key: `privateLocations.${i}`, message: `private location "${s}" does not exist` });
    });
  }
  return issues;
}
