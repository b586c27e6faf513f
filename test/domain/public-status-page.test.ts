import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPageSession, pageSessionToken, PAGE_SESSION_MS } from '../../src/domain/page-session.js';
import { incidentSpan, publicStatusPage, type PublicIncident, type PublicMaintenance } from '../../src/domain/public-status-page.js';
import { escapeHtml, html, safeUrl } from '../../src/api/pages/html.js';
import { statuspageSummary } from '../../src/api/pages/statuspage-json.js';
import { themeCss } from '../../src/api/pages/status-page-theme.js';
import { DEFAULT_THEME_COLORS } from '../../src/domain/status-page-theme.js';

const NOW = new Date('2026-11-24T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const created = new Date('2026-01-01T00:00:00Z');
const cards = [{ id: 'c1', name: 'Core', services: [{ id: 'api', name: 'API', createdAt: created }, { id: 'web', name: 'Web', createdAt: created }] }];

function incident(overrides: Partial<PublicIncident>): PublicIncident {
  return {
    id: 'i1', name: 'Outage', severity: 'MAJOR', lastUpdateStatus: 'INVESTIGATING', duration: null, createdAt: hoursAgo(2), updatedAt: null,
    serviceIds: ['api'], updates: [{ id: 'u1', description: 'Looking', status: 'INVESTIGATING', at: hoursAgo(2) }], ...overrides,
  };
}
function maintenance(overrides: Partial<PublicMaintenance>): PublicMaintenance {
  return {
    id: 'm1', windowId: 1, name: 'Upgrade', description: null, status: 'SCHEDULED', startsAt: hoursAgo(-2), endsAt: hoursAgo(-3),
    serviceIds: ['web'], showAffectedServices: true, updates: [], ...overrides,
  };
}

describe('the public status page model', () => {
  it.each([
    ['no incidents', [], [], 'OPERATIONAL', 'OPERATIONAL', 'OPERATIONAL'],
    ['a major incident on one service', [incident({})], [], 'MAJOR_OUTAGE', 'MAJOR_OUTAGE', 'OPERATIONAL'],
    ['a minor incident', [incident({ severity: 'MINOR' })], [], 'DEGRADED', 'DEGRADED', 'OPERATIONAL'],
    ['a resolved incident', [incident({ lastUpdateStatus: 'RESOLVED', duration: 600 })], [], 'OPERATIONAL', 'OPERATIONAL', 'OPERATIONAL'],
    ['a maintenance in progress', [], [maintenance({ status: 'IN_PROGRESS', startsAt: hoursAgo(1), endsAt: hoursAgo(-1) })], 'UNDER_MAINTENANCE', 'OPERATIONAL', 'UNDER_MAINTENANCE'],
    ['a scheduled maintenance', [], [maintenance({})], 'OPERATIONAL', 'OPERATIONAL', 'OPERATIONAL'],
  ] as const)('with %s: page %s, api %s, web %s', (_name, incidents, maintenances, pageState, apiState, webState) => {
    const model = publicStatusPage({ cards, incidents: [...incidents], maintenances: [...maintenances], now: NOW, days: 90 });
    expect(model.state).toBe(pageState);
    expect(model.cards[0]!.services.map((s) => s.state)).toEqual([apiState, webState]);
    expect(model.cards[0]!.services[0]!.days).toHaveLength(90);
  });

  it('sorts incidents into open and past and maintenances into active, upcoming and past', () => {
    const model = publicStatusPage({
      cards,
      incidents: [incident({ id: 'open' }), incident({ id: 'past', lastUpdateStatus: 'RESOLVED', duration: 60 })],
      maintenances: [maintenance({ id: 'up' }), maintenance({ id: 'now', status: 'IN_PROGRESS' }), maintenance({ id: 'done', status: 'COMPLETED' }), maintenance({ id: 'gone', status: 'CANCELLED' })],
      now: NOW,
      days: 90,
    });
    expect(model.openIncidents.map((i) => i.id)).toEqual(['open']);
    expect(model.pastIncidents.map((i) => i.id)).toEqual(['past']);
    expect(model.activeMaintenances.map((m) => m.id)).toEqual(['now']);
    expect(model.upcomingMaintenances.map((m) => m.id)).toEqual(['up']);
    expect(model.pastMaintenances.map((m) => m.id).sort()).toEqual(['done', 'gone']);
  });

  it('counts an incident as downtime of its service only, and excuses maintenance unless it does not show affected services', () => {
    const down = incident({ lastUpdateStatus: 'RESOLVED', duration: 3600, serviceIds: ['api', 'web'], updates: [{ id: 'u', description: 'x', status: 'RESOLVED', at: hoursAgo(3) }] });
    const excused = maintenance({ status: 'COMPLETED', startsAt: hoursAgo(3), endsAt: hoursAgo(2), serviceIds: ['web'] });
    const model = publicStatusPage({ cards, incidents: [down], maintenances: [excused], now: NOW, days: 1 });
    const [api, web] = model.cards[0]!.services;
    expect(api!.days[0]!.downtimeMs).toBe(3_600_000);
    expect(web!.days[0]!.downtimeMs).toBe(0);
    const shown = publicStatusPage({ cards, incidents: [down], maintenances: [{ ...excused, showAffectedServices: false }], now: NOW, days: 1 });
    expect(shown.cards[0]!.services[1]!.days[0]!.downtimeMs).toBe(3_600_000);
  });

  it('takes an incident\'s span from its oldest update and its duration', () => {
    expect(incidentSpan(incident({ lastUpdateStatus: 'RESOLVED', duration: 90, updates: [{ id: 'b', description: '', status: 'RESOLVED', at: hoursAgo(1) }, { id: 'a', description: '', status: null, at: hoursAgo(2) }] })))
      .toEqual({ start: hoursAgo(2), end: new Date(hoursAgo(2).getTime() + 90_000) });
    expect(incidentSpan(incident({})).end).toBeNull();
  });
});

describe('Statuspage-compatible documents', () => {
  it('maps states to component statuses and the page indicator', () => {
    const model = publicStatusPage({ cards, incidents: [incident({ severity: 'MEDIUM' })], maintenances: [], now: NOW, days: 90 });
    const doc = statuspageSummary({ id: 'p', name: 'Acme', url: 'http://x/status/acme', updatedAt: NOW }, model);
    expect(doc.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
    expect(doc.components.map((c) => [c.id, c.status])).toEqual([['c1', 'partial_outage'], ['api', 'partial_outage'], ['web', 'operational']]);
    expect(doc.incidents[0]).toMatchObject({ status: 'investigating', impact: 'major', shortlink: 'http://x/status/acme/incidents/i1' });
  });
});

describe('private page sessions', () => {
  const hash = 'scrypt$16384$8$1$c2FsdA==$a2V5';
  it('accepts its own token until it expires, and no other page\'s, password\'s or forged one', () => {
    const token = pageSessionToken('page', hash, NOW);
    expect(isPageSession(token, 'page', hash, NOW)).toBe(true);
    expect(isPageSession(token, 'page', hash, new Date(NOW.getTime() + PAGE_SESSION_MS - 1))).toBe(true);
    expect(isPageSession(token, 'page', hash, new Date(NOW.getTime() + PAGE_SESSION_MS))).toBe(false);
    expect(isPageSession(token, 'other', hash, NOW)).toBe(false);
    expect(isPageSession(token, 'page', `${hash}x`, NOW)).toBe(false);
    expect(isPageSession(token, 'page', null, NOW)).toBe(false);
    const [expires] = token.split('.');
    expect(isPageSession(`${Number(expires) + 1000}.${token.split('.')[1]}`, 'page', hash, NOW)).toBe(false);
  });

  it('never accepts arbitrary text as a session', () => {
    fc.assert(fc.property(fc.string(), (text) => !isPageSession(text, 'page', hash, NOW)));
  });
});

describe('page markup', () => {
  it('escapes every interpolated value and keeps only http(s) and same-site URLs', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      const out = html`${text}`.value;
      return out === escapeHtml(text) && !/[<>"']/.test(out);
    }));
    expect(escapeHtml('<script>"x"&\'y\'')).toBe('&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;');
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl('//evil.example/x')).toBe('');
    expect(safeUrl('https://cdn.example/logo.png')).toBe('https://cdn.example/logo.png');
    expect(safeUrl('/status/x')).toBe('/status/x');
  });

  it('pins the palette of LIGHT and DARK pages and lets AUTO follow the visitor, ignoring values that are not colours', () => {
    expect(themeCss('DARK', { dark: { bodyBackgroundColor: '#123' } })).toMatch(/^:root\{[^}]*--bodyBackgroundColor:#123;/);
    expect(themeCss('LIGHT', null)).toMatch(new RegExp(`^:root\\{[^}]*--bodyBackgroundColor:${DEFAULT_THEME_COLORS.light.bodyBackgroundColor};`));
    expect(themeCss('AUTO', { light: { bodyBackgroundColor: 'red;}body{x:y' } })).not.toContain('red;');
    expect(themeCss('AUTO', null)).toContain('@media (prefers-color-scheme: dark)');
  });
});
