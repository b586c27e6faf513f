import { incidentStatusMoveIssue, isIncidentStatus, type IncidentStatus } from './incident-status-moves.js';
import type { Issue } from './lookout-error.js';

/**
 * Issues of the services an incident names: each must be a service of the account (`known`: the
 * ids of those found), once. Another account's service is "not found" exactly like an unknown one.
 */
export function incidentServiceIssues(sent: readonly { id: string }[], known: ReadonlySet<string>, key = 'services'): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  sent.forEach((service, index) => {
    const id = service.id.toLowerCase();
    if (!known.has(id)) issues.push({ key: `${key}.${index}.id`, message: `is not a service of this account (${service.id})` });
    else if (seen.has(id)) issues.push({ key: `${key}.${index}.id`, message: 'names a service listed before it' });
    seen.add(id);
  });
  return issues;
}

/**
 * Issues of the checks a service is built from: each a check of the account (`known`: the ids found,
 * lower-case), once. Another account's check is "not found" exactly like an unknown one.
 */
export function serviceCheckIssues(sent: readonly { id: string }[], known: ReadonlySet<string>): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  sent.forEach((check, index) => {
    const id = check.id.toLowerCase();
    if (!known.has(id)) issues.push({ key: `checks.${index}.id`, message: `is not a check of this account (${check.id})` });
    else if (seen.has(id)) issues.push({ key: `checks.${index}.id`, message: 'names a check listed before it' });
    seen.add(id);
  });
  return issues;
}

/**
 * Issues of the statuses of updates posted in order on an incident whose status is `from`: each
 * status must be one of the four (incidentStatusMoveIssue), keyed `<key>.<index>.status`, or
 * `status` when `key` is empty (a single update).
 */
export function incidentUpdateStatusIssues(from: IncidentStatus | null, statuses: readonly unknown[], key = ''): Issue[] {
  const issues: Issue[] = [];
  let current = from;
  statuses.forEach((status, index) => {
    const issue = incidentStatusMoveIssue(current, status);
    if (issue) issues.push({ ...issue, key: key ? `${key}.${index}.${issue.key}` : issue.key });
    else if (isIncidentStatus(status)) current = status;
    else current ??= 'INVESTIGATING';
  });
  return issues;
}
