import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { gqlCounted, gqlData } from '../support/graphql.js';

const HOUR_MS = 3_600_000;
const fromNow = (hours: number) => new Date(Math.floor((Date.now() + hours * HOUR_MS) / 1000) * 1000).toISOString();

describe('Check.maintenance over GraphQL', () => {
  let s: TestServer;
  let windowId: number;

  beforeAll(async () => {
    s = await startTestServer();
    for (let i = 0; i < 12; i++) {
      const res = await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
        name: `Check ${String(i).padStart(2, '0')}`, tags: i % 2 ? ['db'] : ['web'], frequency: 1440, locations: ['eu-west-1'], activated: false,
        request: { method: 'GET', url: 'https://shop.example.test/' },
      });
      expect(res.status).toBe(201);
    }
    windowId = (await s.a.request('POST', '/v1/maintenance-windows', { name: 'DB upgrade', tags: ['db'], pauseAllChecks: true, startsAt: fromNow(24), endsAt: fromNow(26) })).body.id;
  });
  afterAll(async () => s?.close());

  const QUERY = `{ checks(first: 20) { nodes { name tags maintenance { state windowName windowId maintenanceId paused startsAt endsAt window { name } } } } }`;

  it('answers each check\'s next maintenance, paused or silenced by its window, with one REST call for every check of the query', async () => {
    const { res, count } = await gqlCounted(s, s.a, QUERY);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const nodes = res.data.checks.nodes as Array<{ name: string; tags: string[]; maintenance: Record<string, any> | null }>;
    expect(nodes).toHaveLength(12);
    for (const n of nodes) {
      // pauseAllChecks pauses the checks the window's tags select and silences every other one.
      expect(n.maintenance, n.name).toMatchObject({ state: 'SCHEDULED', windowName: 'DB upgrade', paused: n.tags.includes('db'), window: { name: 'DB upgrade' } });
    }
    // The checks list, the maintenance of all twelve, the windows list (for `window`).
    expect(count).toBe(3);
    expect(res.extensions?.cost?.restCalls).toBeGreaterThanOrEqual(count);
  });

  it('follows a maintenance started with createMaintenanceUpdate, and its ids resolve as nodes', async () => {
    const { maintenanceWindow } = await gqlData(s.a, `query($id: ID!) { maintenanceWindow(id: $id) { upcomingMaintenances(first: 1) { id } } }`, { id: String(windowId) });
    const maintenanceId = maintenanceWindow.upcomingMaintenances[0].id;
    const started = await gqlData(s.a, `mutation($id: ID!) { createMaintenanceUpdate(maintenanceId: $id, input: { status: IN_PROGRESS, description: "Started." }) { userErrors { field message } } }`, { id: maintenanceId });
    expect(started.createMaintenanceUpdate.userErrors).toEqual([]);
    const data = await gqlData(s.a, QUERY);
    const db = data.checks.nodes.find((n: { tags: string[] }) => n.tags.includes('db'));
    expect(db.maintenance).toMatchObject({ state: 'IN_PROGRESS', maintenanceId, paused: true });
    const node = await gqlData(s.a, `query($m: ID!, $w: ID!) { m: node(id: $m) { __typename } w: node(id: $w) { ... on MaintenanceWindow { name } } }`, { m: maintenanceId, w: db.maintenance.windowId });
    expect(node).toEqual({ m: { __typename: 'Maintenance' }, w: { name: 'DB upgrade' } });
  });
});
