import type { Issue } from './lookout-error.js';

/** The parts of `statusPageVisibility` whose rules span several keys or need the store's answer. */
export interface VisibilityLinks {
  affectAllServices: boolean;
  serviceIds: readonly string[];
  statusPageIds: readonly string[];
  reminderMinutesBefore: readonly number[];
}

const KEY = 'statusPageVisibility';

/** Indexes of values that repeat one listed before them (ids compared case-insensitively). */
function repeats(values: readonly (string | number)[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const k = String(v).toLowerCase();
    if (seen.has(k)) out.push(i);
    seen.add(k);
  });
  return out;
}

/** What the store knows of the ids a window names (all lower-case). */
export interface KnownLinks {
  /** The account's services among those named. */
  services: ReadonlySet<string>;
  /** The account's status pages among those named. */
  pages: ReadonlySet<string>;
  /** The services the cards of those pages show. */
  shown: ReadonlySet<string>;
}

/**
 * What is wrong with a window's status page links, keyed under `statusPageVisibility`:
 * `affectAllServices` with services named (the two are exclusive: which would the page show?); a
 * service or status page that is not the account's (another account's is "not found" exactly like an
 * unknown one); a service none of the window's status pages shows ("each must belong to a linked
 * page", as the API reference says); any id or reminder listed twice.
 */
export function maintenanceVisibilityIssues(v: VisibilityLinks, known: KnownLinks): Issue[] {
  const issues: Issue[] = [];
  if (v.affectAllServices && v.serviceIds.length > 0) {
    issues.push({ key: `${KEY}.serviceIds`, message: 'must be empty when affectAllServices is true (the window then affects every service)' });
  }
  const repeatedPages = new Set(repeats(v.statusPageIds));
  v.statusPageIds.forEach((id, i) => {
    if (!known.pages.has(id.toLowerCase())) issues.push({ key: `${KEY}.statusPageIds.${i}`, message: `is not a status page of this account (${id})` });
    else if (repeatedPages.has(i)) issues.push({ key: `${KEY}.statusPageIds.${i}`, message: 'names a status page listed before it' });
  });
  const repeatedServices = new Set(repeats(v.serviceIds));
  v.serviceIds.forEach((id, i) => {
    const key = `${KEY}.serviceIds.${i}`;
    if (!known.services.has(id.toLowerCase())) issues.push({ key, message: `is not a status page service of this account (${id})` });
    else if (repeatedServices.has(i)) issues.push({ key, message: 'names a service listed before it' });
    else if (!known.shown.has(id.toLowerCase())) issues.push({ key, message: 'is not shown by any of the window\'s statusPageIds' });
  });
  for (const i of repeats(v.reminderMinutesBefore)) issues.push({ key: `${KEY}.reminderMinutesBefore.${i}`, message: 'repeats a reminder listed before it' });
  return issues;
}
