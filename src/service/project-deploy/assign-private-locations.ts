import type { SubmittedResource } from '../../domain/plan-deployment.js';
import type { DeploymentContext } from './deployment-context.js';
import { badReference } from './resolve-refs.js';

/**
 * Where the project's checks and groups run privately, from its assignment resources: exactly the
 * declared ones (by `type:logicalId`), besides any slugs a payload names itself. Needs the private
 * locations applied first (their slugs).
 */
export function assignPrivateLocations(ctx: DeploymentContext, ofType: (type: string) => SubmittedResource[]): Map<string, string[]> {
  const runsIn = new Map<string, string[]>();
  for (const r of ofType('check')) runsIn.set(`check:${r.logicalId}`, []);
  for (const r of ofType('check-group')) runsIn.set(`check-group:${r.logicalId}`, []);
  for (const r of [...ofType('private-location-check-assignment'), ...ofType('private-location-group-assignment')]) {
    const p = (r.payload ?? {}) as Record<string, any>; // a construct's payload, checked field by field below
    const [kind, key] = r.type === 'private-location-check-assignment' ? ['check', 'checkId'] : ['check-group', 'groupId'];
    const slug = typeof p.privateLocationId?.ref === 'string' ? ctx.slugOf.get(p.privateLocationId.ref) : undefined;
    const list = typeof p[key]?.ref === 'string' ? runsIn.get(`${kind}:${p[key].ref}`) : undefined;
    if (slug === undefined || list === undefined) {
      throw badReference(r, `must reference a private location and a ${kind} of the project`,
        `needs privateLocationId as a reference to a private location, and ${key} as a reference to a ${kind} the project owns`);
    }
    if (!list.includes(slug)) list.push(slug);
    ctx.record(r, null);
  }
  return runsIn;
}

/** The payload's own private locations and the assigned ones. */
export function withPrivateLocations(runsIn: Map<string, string[]>, r: SubmittedResource, body: Record<string, unknown>): Record<string, unknown> {
  const own: unknown[] = Array.isArray(body.privateLocations) ? body.privateLocations : [];
  return { ...body, privateLocations: [...new Set([...own, ...runsIn.get(`${r.type}:${r.logicalId}`)!])] };
}
