import { describe, expect, it } from 'vitest';
import { findRefs, planDeployment, type StoredResource, type SubmittedResource } from '../../src/domain/plan-deployment.js';

const channel: SubmittedResource = { type: 'alert-channel', logicalId: 'mail', payload: { type: 'EMAIL', config: { address: 'a@example.test' } } };
const group: SubmittedResource = { type: 'check-group', logicalId: 'grp', payload: { name: 'G' } };
const check: SubmittedResource = { type: 'check', logicalId: 'api', payload: { name: 'A', groupId: { ref: 'grp' } } };
const sub: SubmittedResource = { type: 'alert-channel-subscription', logicalId: 'sub', payload: { alertChannelId: { ref: 'mail' }, checkId: { ref: 'api' } } };

describe('planDeployment', () => {
  it('creates what the project does not own yet, every resource after those it references', () => {
    const plan = planDeployment([], [sub, check, channel, group]);
    expect(plan.issues).toEqual([]);
    const at = (id: string) => plan.order.findIndex((r) => r.logicalId === id);
    expect(at('grp')).toBeLessThan(at('api'));
    expect(at('api')).toBeLessThan(at('sub'));
    expect(at('mail')).toBeLessThan(at('sub'));
    expect(plan.diff.every((d) => d.action === 'CREATE' && d.physicalId === null)).toBe(true);
  });

  it('removes a status page before the services its cards name', () => {
    const stored: StoredResource[] = [
      { type: 'status-page-service', logicalId: 'svc', physicalId: 'uuid-s' },
      { type: 'maintenance-window', logicalId: 'mw', physicalId: '4' },
      { type: 'status-page', logicalId: 'page', physicalId: 'uuid-p' },
      { type: 'dashboard', logicalId: 'board', physicalId: 'uuid-d' },
    ];
    const plan = planDeployment(stored, []);
    expect(plan.issues).toEqual([]);
    const at = (id: string) => plan.deletes.findIndex((r) => r.logicalId === id);
    expect(at('page')).toBeLessThan(at('svc'));
    expect(plan.deletes).toHaveLength(4);
  });

  it('updates what it owns (physical id kept) and deletes what it no longer has, dependants first', () => {
    const stored: StoredResource[] = [
      { type: 'check-group', logicalId: 'old-grp', physicalId: '7' },
      { type: 'check', logicalId: 'api', physicalId: 'uuid-1' },
      { type: 'alert-channel', logicalId: 'old-mail', physicalId: '3' },
      { type: 'check', logicalId: 'old-check', physicalId: 'uuid-2' },
    ];
    const plan = planDeployment(stored, [group, check]);
    expect(plan.diff).toContainEqual({ type: 'check', logicalId: 'api', physicalId: 'uuid-1', action: 'UPDATE' });
    expect(plan.diff).toContainEqual({ type: 'check-group', logicalId: 'grp', physicalId: null, action: 'CREATE' });
    expect(plan.deletes.map((d) => d.logicalId)).toEqual(['old-check', 'old-grp', 'old-mail']);
  });

  it('removes private location assignments before the checks and the private locations after them', () => {
    const stored = [
      { type: 'private-location', logicalId: 'basement', physicalId: 'pl-1' },
      { type: 'check', logicalId: 'api', physicalId: 'uuid-1' },
      { type: 'private-location-check-assignment', logicalId: 'assign', physicalId: null },
      { type: 'check-group', logicalId: 'grp', physicalId: '3' },
      { type: 'private-location-group-assignment', logicalId: 'assign-grp', physicalId: null },
    ];
    expect(planDeployment(stored, []).deletes.map((d) => d.type)).toEqual([
      'private-location-check-assignment', 'private-location-group-assignment', 'check', 'check-group', 'private-location',
    ]);
  });

  it('with preserveResources, keeps removed resources and reports them DETACHED', () => {
    const plan = planDeployment([{ type: 'check', logicalId: 'gone', physicalId: 'uuid-9' }], [], { preserveResources: true });
    expect(plan.deletes).toEqual([]);
    expect(plan.diff).toEqual([{ type: 'check', logicalId: 'gone', physicalId: 'uuid-9', action: 'DETACHED' }]);
  });

  it.each([
    ['a reference to a logical id not in the project', [{ ...check, payload: { groupId: { ref: 'nope' } } }], 'api.payload.groupId', 'not a resource of the project'],
    ['an unknown resource type', [{ type: 'gizmo', logicalId: 'g1', payload: {} }], 'g1.type', 'unknown resource type "gizmo"'],
    ['a resource declared twice', [group, group], 'grp', 'declared twice'],
    ['a reference cycle', [
      { type: 'check', logicalId: 'x', payload: { groupId: { ref: 'y' } } },
      { type: 'check-group', logicalId: 'y', payload: { setup: { ref: 'x' } } },
    ], 'x', 'reference cycle'],
  ])('refuses %s, keyed by the logical id', (_name, submitted, key, message) => {
    const plan = planDeployment([], submitted as SubmittedResource[]);
    expect(plan.issues).toContainEqual({ key, message: expect.stringContaining(message) });
  });

  it('lends a resource outside the project (member: false) to references without planning it', () => {
    const outside: SubmittedResource = { type: 'check-group', logicalId: 'grp', payload: null, member: false, physicalId: 12 };
    const plan = planDeployment([], [outside, check]);
    expect(plan.issues).toEqual([]);
    expect(plan.outside).toEqual([outside]);
    expect(plan.diff).toEqual([{ type: 'check', logicalId: 'api', physicalId: null, action: 'CREATE' }]);
    expect(planDeployment([], [{ ...outside, physicalId: null }]).issues).toEqual([{ key: 'grp.physicalId', message: expect.stringContaining('needs its physicalId') }]);
  });

  it('finds references at any depth, with their paths', () => {
    expect(findRefs({ a: [{ ref: 'x' }, { b: { ref: 'y' } }], c: { ref: 'z', other: 1 } })).toEqual([
      { path: 'a.0', ref: 'x' },
      { path: 'a.1.b', ref: 'y' },
    ]);
  });
});
