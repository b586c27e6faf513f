import { describe, expect, it } from 'vitest';
import { maintenanceVisibilityIssues, type KnownLinks, type VisibilityLinks } from '../../src/domain/maintenance-visibility-issues.js';

const SERVICE = '11111111-1111-4111-8111-111111111111';
const HIDDEN_SERVICE = '22222222-2222-4222-8222-222222222222';
const PAGE = '33333333-3333-4333-8333-333333333333';
const UNKNOWN = '44444444-4444-4444-8444-444444444444';

const known: KnownLinks = { services: new Set([SERVICE, HIDDEN_SERVICE]), pages: new Set([PAGE]), shown: new Set([SERVICE]) };
const links = (extra: Partial<VisibilityLinks>): VisibilityLinks => ({
  affectAllServices: false, serviceIds: [], statusPageIds: [], reminderMinutesBefore: [], ...extra,
});

describe('maintenanceVisibilityIssues', () => {
  it('accepts services shown on the window\'s pages, in any case', () => {
    expect(maintenanceVisibilityIssues(links({ statusPageIds: [PAGE.toUpperCase()], serviceIds: [SERVICE.toUpperCase()] }), known)).toEqual([]);
  });

  it('accepts affecting all services with none named', () => {
    expect(maintenanceVisibilityIssues(links({ affectAllServices: true, statusPageIds: [PAGE] }), known)).toEqual([]);
  });

  it.each([
    ['affectAllServices with services named', links({ affectAllServices: true, statusPageIds: [PAGE], serviceIds: [SERVICE] }), ['statusPageVisibility.serviceIds']],
    ['a service that is not the account\'s', links({ statusPageIds: [PAGE], serviceIds: [UNKNOWN] }), ['statusPageVisibility.serviceIds.0']],
    ['a service no linked page shows', links({ statusPageIds: [PAGE], serviceIds: [SERVICE, HIDDEN_SERVICE] }), ['statusPageVisibility.serviceIds.1']],
    ['a service listed twice', links({ statusPageIds: [PAGE], serviceIds: [SERVICE, SERVICE.toUpperCase()] }), ['statusPageVisibility.serviceIds.1']],
    ['a status page that is not the account\'s', links({ statusPageIds: [UNKNOWN] }), ['statusPageVisibility.statusPageIds.0']],
    ['a status page listed twice', links({ statusPageIds: [PAGE, PAGE] }), ['statusPageVisibility.statusPageIds.1']],
    ['a reminder listed twice', links({ reminderMinutesBefore: [60, 120, 60] }), ['statusPageVisibility.reminderMinutesBefore.2']],
  ])('refuses %s, naming the key', (_what, v, keys) => {
    expect(maintenanceVisibilityIssues(v, known).map((i) => i.key)).toEqual(keys);
  });

  it('refuses a service when the window names no status page (nothing shows it)', () => {
    const noPages: KnownLinks = { ...known, pages: new Set(), shown: new Set() };
    expect(maintenanceVisibilityIssues(links({ serviceIds: [SERVICE] }), noPages).map((i) => i.key)).toEqual(['statusPageVisibility.serviceIds.0']);
  });
});
