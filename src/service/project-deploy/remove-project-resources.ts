import { LookoutError } from '../../domain/lookout-error.js';
import type { StoredResource } from '../../domain/plan-deployment.js';
import type { DeploymentContext } from './deployment-context.js';
import { aboutResource } from './resolve-refs.js';

/** Removes what the project no longer declares, dependants first; a resource already deleted by hand is simply gone. */
export async function removeProjectResources({ services, accountId }: DeploymentContext, deletes: StoredResource[]): Promise<void> {
  const remove: Record<string, (id: string) => Promise<unknown>> = {
    check: (id) => services.checks.delete(accountId, id),
    'check-group': (id) => services.groups.delete(accountId, Number(id)),
    'alert-channel': (id) => services.channels.delete(accountId, Number(id)),
    'maintenance-window': (id) => services.windows.delete(accountId, Number(id)),
    dashboard: (id) => services.dashboards.delete(accountId, id),
    'status-page': (id) => services.pages.delete(accountId, id),
    'status-page-service': (id) => services.pageServices.delete(accountId, id),
    'private-location': (id) => services.privateLocations.delete(accountId, id),
  };
  for (const s of deletes) {
    if (s.physicalId == null) continue;
    try {
      await remove[s.type]?.(s.physicalId);
    } catch (err) {
      if (err instanceof LookoutError && err.code === 'NOT_FOUND') continue;
      throw aboutResource(err, s);
    }
  }
}
