import { isUuid } from '../../domain/is-uuid.js';
import { LookoutError } from '../../domain/lookout-error.js';
import type { SubmittedResource } from '../../domain/plan-deployment.js';
import type { DeploymentContext } from './deployment-context.js';

/** Resources outside the project lend their ids to `{ ref }`s, once they are known to be the caller's. */
export async function lendOutsideResources(ctx: DeploymentContext, outside: SubmittedResource[]): Promise<void> {
  const { repos, accountId } = ctx;
  for (const r of outside) {
    const id = String(r.physicalId);
    const location = r.type === 'private-location' && isUuid(id) ? await repos.privateLocations.get(accountId, id) : undefined;
    if (location) ctx.slugOf.set(r.logicalId, location.slug_name);
    const exists = r.type === 'alert-channel' ? (await repos.references.alertChannels(accountId, [Number(id)])).has(id)
      : r.type === 'check-group' ? (await repos.references.groups(accountId, [Number(id)])).has(id)
        : r.type === 'check' ? isUuid(id) && (await repos.checks.get(accountId, id)) !== undefined
          : location !== undefined;
    if (!exists) {
      throw new LookoutError('VALIDATION', `${r.type} "${r.logicalId}": ${r.type} ${id} does not exist in the account`, {
        issues: [{ key: `resources.${r.logicalId}.physicalId`, message: `${r.type} ${id} does not exist` }],
        source: 'payload',
      });
    }
    ctx.ids.set(r.logicalId, r.type === 'check' || r.type === 'private-location' ? id : Number(id));
  }
}
