import { assertValid } from '../../domain/lookout-error.js';
import type { SubmittedResource } from '../../domain/plan-deployment.js';
import { dedupeSubscriptions, referenceIssues } from '../reference-issues.js';
import type { DeploymentContext } from './deployment-context.js';
import { aboutResource, badReference, resolveRefs } from './resolve-refs.js';

/** Every check and group of the project gets exactly the alert channel subscriptions the project declares. */
export async function subscribeProjectResources(ctx: DeploymentContext, ofType: (type: string) => SubmittedResource[]): Promise<void> {
  const { repos, accountId } = ctx;
  const subs = new Map<string, { alertChannelId: number; activated: boolean }[]>();
  for (const r of ofType('check')) subs.set(`check:${r.logicalId}`, []);
  for (const r of ofType('check-group')) subs.set(`check-group:${r.logicalId}`, []);
  for (const r of ofType('alert-channel-subscription')) {
    const p = (r.payload ?? {}) as Record<string, any>; // a construct's payload, checked field by field below
    const resolved = resolveRefs(p, ctx.ids) as Record<string, any>;
    const target = p.checkId?.ref ? `check:${p.checkId.ref}` : p.groupId?.ref ? `check-group:${p.groupId.ref}` : undefined;
    if (!target || !subs.has(target) || typeof resolved.alertChannelId !== 'number') {
      throw badReference(r, 'must reference an alert channel and a check or group of the project',
        'needs alertChannelId, and checkId or groupId as a reference to a check or group the project owns');
    }
    subs.get(target)!.push({ alertChannelId: resolved.alertChannelId, activated: resolved.activated ?? true });
    ctx.record(r, null);
  }
  for (const r of [...ofType('check'), ...ofType('check-group')]) {
    const list = dedupeSubscriptions(subs.get(`${r.type}:${r.logicalId}`) ?? []);
    try {
      assertValid(await referenceIssues(repos, accountId, {}, list));
    } catch (err) {
      throw aboutResource(err, r);
    }
    const id = ctx.ids.get(r.logicalId)!;
    await repos.subscriptions.replaceFor(accountId, r.type === 'check' ? { checkId: String(id) } : { groupId: Number(id) }, list);
  }
}
