import type { Issue } from './lookout-error.js';

/**
 * A resource as the CLI submits it: `payload` may name other resources as `{ ref: logicalId }`.
 * `member: false` is a reference to a resource that exists outside the project (`AlertChannel.fromId`):
 * never created, changed or owned, only its `physicalId` lent to the references naming it.
 */
export interface SubmittedResource {
  type: string;
  logicalId: string;
  payload: unknown;
  member?: boolean;
  physicalId?: string | number | null;
}

/** A resource the project already owns. */
export interface StoredResource {
  type: string;
  logicalId: string;
  physicalId: string | null;
}

/** One line of the diff the CLI shows (`checkly deploy --preview`). */
export interface DiffEntry {
  type: string;
  logicalId: string;
  physicalId: string | null;
  action: 'CREATE' | 'UPDATE' | 'DELETE' | 'DETACHED';
}

export interface DeploymentPlan {
  /** Submitted member resources in an order where every resource comes after those it references. */
  order: SubmittedResource[];
  /** Submitted resources that only name a resource outside the project (`member: false`). */
  outside: SubmittedResource[];
  /** Stored resources the project no longer has, dependants first (empty when preserved). */
  deletes: StoredResource[];
  /** Stored resources the project no longer has but keeps in the account (preserveResources). */
  detached: StoredResource[];
  diff: DiffEntry[];
  issues: Issue[];
}

/**
 * Resource types a deploy reconciles, in the order removals are applied (dependants first): links
 * (subscriptions, private location assignments) before what they link, private locations last,
 * after the checks and groups that ran there.
 */
export const SUPPORTED_RESOURCE_TYPES = [
  'alert-channel-subscription', 'private-location-check-assignment', 'private-location-group-assignment', 'check', 'check-group',
  'alert-channel', 'maintenance-window', 'status-page', 'status-page-service', 'dashboard', 'private-location',
] as const;

/** Every `{ ref }` in `value` with the dotted path it sits at. */
export function findRefs(value: unknown, path = ''): { path: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => findRefs(v, path ? `${path}.${i}` : String(i)));
  if (value === null || typeof value !== 'object') return [];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]![0] === 'ref' && typeof entries[0]![1] === 'string') return [{ path, ref: entries[0]![1] }];
  return entries.flatMap(([k, v]) => findRefs(v, path ? `${path}.${k}` : k));
}

const keyOf = (r: { type: string; logicalId: string }) => `${r.type}\u0000${r.logicalId}`;

/**
 * What deploying `submitted` over `stored` does: CREATE what is new, UPDATE what the project
 * already owns (its physical id kept), DELETE (or, preserved, DETACH) what it no longer has.
 * Issues are keyed by the resource's logical id; any issue means nothing may be applied.
 */
export function planDeployment(stored: readonly StoredResource[], submitted: readonly SubmittedResource[], opts: { preserveResources?: boolean } = {}): DeploymentPlan {
  const issues: Issue[] = [];
  const supported = new Set<string>(SUPPORTED_RESOURCE_TYPES);
  const byLogicalId = new Map<string, SubmittedResource>();
  const seen = new Set<string>();
  for (const r of submitted) {
    if (seen.has(keyOf(r))) issues.push({ key: r.logicalId, message: `is declared twice as a ${r.type}` });
    seen.add(keyOf(r));
    if (!supported.has(r.type)) issues.push({ key: `${r.logicalId}.type`, message: `unknown resource type "${r.type}"` });
    if (r.member === false && (r.physicalId == null || r.physicalId === '')) {
      issues.push({ key: `${r.logicalId}.physicalId`, message: 'a resource outside the project (member: false) needs its physicalId' });
    }
    if (!byLogicalId.has(r.logicalId)) byLogicalId.set(r.logicalId, r);
  }

  // Dependencies: a resource depends on every resource it references.
  const deps = new Map<SubmittedResource, SubmittedResource[]>();
  for (const r of submitted) {
    const targets: SubmittedResource[] = [];
    for (const { path, ref } of findRefs(r.payload)) {
      const target = byLogicalId.get(ref);
      if (!target) issues.push({ key: `${r.logicalId}.payload.${path}`, message: `references "${ref}", which is not a resource of the project` });
      else targets.push(target);
    }
    deps.set(r, targets);
  }

  // Depth-first topological order; a resource met again while its own references are being
  // visited closes a cycle.
  const order: SubmittedResource[] = [];
  const state = new Map<SubmittedResource, 'visiting' | 'done'>();
  const inCycle = new Set<SubmittedResource>();
  const visit = (r: SubmittedResource, stack: SubmittedResource[]): void => {
    if (state.get(r) === 'done') return;
    if (state.get(r) === 'visiting') {
      for (const s of stack.slice(stack.indexOf(r))) inCycle.add(s);
      return;
    }
    state.set(r, 'visiting');
    for (const d of deps.get(r) ?? []) visit(d, [...stack, r]);
    state.set(r, 'done');
    order.push(r);
  };
  for (const r of submitted) visit(r, []);
  for (const r of submitted) {
    if (inCycle.has(r)) issues.push({ key: r.logicalId, message: 'is part of a reference cycle' });
  }

  const outside = order.filter((r) => r.member === false);
  const members = order.filter((r) => r.member !== false);
  const storedByKey = new Map(stored.map((s) => [keyOf(s), s]));
  const diff: DiffEntry[] = members.map((r) => {
    const s = storedByKey.get(keyOf(r));
    return { type: r.type, logicalId: r.logicalId, physicalId: s?.physicalId ?? null, action: s ? 'UPDATE' : 'CREATE' };
  });
  const rank = (type: string) => {
    const i = (SUPPORTED_RESOURCE_TYPES as readonly string[]).indexOf(type);
    return i < 0 ? SUPPORTED_RESOURCE_TYPES.length : i;
  };
  const gone = stored.filter((s) => !seen.has(keyOf(s))).sort((a, b) => rank(a.type) - rank(b.type));
  const deletes = opts.preserveResources ? [] : gone;
  const detached = opts.preserveResources ? gone : [];
  for (const s of gone) diff.push({ type: s.type, logicalId: s.logicalId, physicalId: s.physicalId, action: opts.preserveResources ? 'DETACHED' : 'DELETE' });
  return { order: members, outside, deletes, detached, diff, issues };
}
