import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlCounted, gqlData } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const WINDOWS = '/v1/maintenance-windows';
const SERVICES = '/v1/status-pages/services';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** An instant `hours` from now, whole seconds, as the API writes it. */
const fromNow = (hours: number) => new Date(Math.floor((Date.now() + hours * HOUR_MS) / 1000) * 1000).toISOString();

const ON_WINDOW = `query($id: ID!, $from: DateTime, $to: DateTime, $first: Int) {
  maintenanceWindow(id: $id) { upcomingMaintenances(from: $from, to: $to, first: $first) { maintenanceWindowId occurrence startsAt endsAt } } }`;
const ON_SERVICE = `query($id: ID!, $first: Int) {
  statusPageService(id: $id) { upcomingMaintenances(first: $first) { maintenanceWindowId startsAt endsAt } } }`;

describe.each(BACKENDS)('upcomingMaintenances of open-ended daily windows on $name', (backend) => {
  // A budget far below the ~400 maintenances (8 pages) an open-ended daily window plans ahead.
  const BUDGET = 4;
  let s: TestServer;
  let windowId: string;
  let service: string;
  const windowIds: number[] = [];

  beforeAll(async () => {
    s = await startTestServer({ backend, config: { graphqlRestBudget: BUDGET } });
    service = (await s.a.request('POST', SERVICES, { name: 'API' })).body.id;
    const page = (await s.a.request('POST', '/v1/status-pages', { name: 'Status', url: `gql-upcoming-${backend.name}`, cards: [{ name: 'Core', services: [{ id: service }] }] })).body.id;
    for (const hours of [2, 14]) {
      const res = await s.a.request('POST', WINDOWS, {
        name: `Nightly ${hours}`, startsAt: fromNow(hours), endsAt: fromNow(hours + 1), repeatUnit: 'DAY',
        statusPageVisibility: { statusPageIds: [page], serviceIds: [service] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      windowIds.push(res.body.id);
    }
    windowId = toGlobalId('MaintenanceWindow', windowIds[0]!);
  });
  afterAll(() => s?.close());

  it('the unbounded maintenances field of such a window exhausts the REST budget', async () => {
    const res = await gql(s.a, `query($id: ID!) { maintenanceWindow(id: $id) { maintenances { startsAt } } }`, { id: windowId });
    expect(res.errors?.[0]?.extensions?.code).toBe('REST_BUDGET_EXCEEDED');
  });

  it('answers the first 50 by default, by start, each ending after now, with one REST call for the window', async () => {
    const before = Date.now();
    const { res, count } = await gqlCounted(s, s.a, ON_WINDOW, { id: windowId });
    expect(res.errors).toBeUndefined();
    const list = res.data.maintenanceWindow.upcomingMaintenances;
    expect(list).toHaveLength(50);
    expect(list.map((m: any) => m.occurrence)).toEqual([...list.map((m: any) => m.occurrence)].sort((a, b) => a - b));
    for (const m of list) expect(Date.parse(m.endsAt)).toBeGreaterThan(before);
    expect(Date.parse(list[1].startsAt) - Date.parse(list[0].startsAt)).toBe(DAY_MS);
    expect(count).toBe(2);
    expect(res.extensions?.cost).toMatchObject({ restCalls: 2, budget: BUDGET });
  });

  it('answers `first` maintenances within from and to only', async () => {
    const from = fromNow(3 * 24);
    const to = fromNow(10 * 24);
    const list = (await gqlData(s.a, ON_WINDOW, { id: windowId, from, to, first: 5 })).maintenanceWindow.upcomingMaintenances;
    expect(list).toHaveLength(5);
    for (const m of list) {
      expect(Date.parse(m.endsAt)).toBeGreaterThan(Date.parse(from));
      expect(Date.parse(m.startsAt)).toBeLessThan(Date.parse(to));
    }
    const narrow = (await gqlData(s.a, ON_WINDOW, { id: windowId, from, to: fromNow(3 * 24 + 25), first: 50 })).maintenanceWindow.upcomingMaintenances;
    expect(narrow).toHaveLength(1);
  });

  it("merges a service's affecting windows by start, at most `first`, with one REST call per window", async () => {
    const { res, count } = await gqlCounted(s, s.a, ON_SERVICE, { id: service, first: 3 });
    expect(res.errors).toBeUndefined();
    const list = res.data.statusPageService.upcomingMaintenances;
    expect(list.map((m: any) => m.maintenanceWindowId)).toEqual([windowIds[0], windowIds[1], windowIds[0]]);
    // The service, the window list, then one page per window: within the budget of 4.
    expect(count).toBe(4);
  });

  it.each([
    ['first above 50', { first: 51 }, 'first'],
    ['first below 1', { first: 0 }, 'first'],
    ['to before from', { from: fromNow(48), to: fromNow(24) }, 'to'],
    ['to equal to from', { from: fromNow(48), to: fromNow(48) }, 'to'],
  ])('refuses %s with BAD_USER_INPUT naming the argument, before any REST call for maintenances', async (_what, args, argumentName) => {
    const res = await gql(s.a, ON_WINDOW, { id: windowId, ...args });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
    const onService = await gql(s.a, `query($id: ID!, $first: Int, $from: DateTime, $to: DateTime) {
      statusPageService(id: $id) { upcomingMaintenances(first: $first, from: $from, to: $to) { startsAt } } }`, { id: service, ...args });
    expect(onService.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
  });
});
