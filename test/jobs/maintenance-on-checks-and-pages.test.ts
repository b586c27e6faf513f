import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../src/domain/check-result.js';
import { createAlerting, type Alerting } from '../../src/jobs/alerting/create-alerting.js';
import { createMaintenancePauses } from '../../src/jobs/create-maintenance-pauses.js';
import { toRunnable } from '../../src/runner/prepare-run.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { startHttpTarget } from '../support/http-target.js';
import { createManualClock } from '../support/manual-clock.js';
import { probe, runnable, testRecorder } from '../support/run-results.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const WINDOWS = '/v1/maintenance-windows';
const HOUR = 3_600_000;

describe.each(BACKENDS)('maintenance in progress on checks and status pages ($name)', (backend) => {
  let s: TestServer;
  let receiver: HttpReceiver;
  let api: string;
  let web: string;
  let pageId: string;
  let slug: string;

  beforeAll(async () => {
    s = await startTestServer({ backend });
    receiver = await startHttpReceiver();
    api = (await s.a.request('POST', '/v1/status-pages/services', { name: 'API' })).body.id;
    web = (await s.a.request('POST', '/v1/status-pages/services', { name: 'Web' })).body.id;
    slug = `maint-${randomUUID().slice(0, 8)}`;
    const page = await s.a.request('POST', '/v1/status-pages', { name: 'Acme', url: slug, cards: [{ name: 'All', services: [{ id: api }, { id: web }] }] });
    expect(page.status).toBe(201);
    pageId = page.body.id;
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  /** A window from an hour ago to an hour ahead, its first maintenance moved to `status` by an update. */
  const windowInProgress = async (body: Record<string, unknown>, status = 'IN_PROGRESS') => {
    const created = await s.a.request('POST', WINDOWS, {
      name: `Upgrade ${randomUUID().slice(0, 6)}`, startsAt: new Date(Date.now() - HOUR).toISOString(), endsAt: new Date(Date.now() + HOUR).toISOString(),
      ...body,
    });
    expect(created.status).toBe(201);
    const occurrences = await s.a.request('GET', `${WINDOWS}/${created.body.id}/maintenances`);
    expect(occurrences.status).toBe(200);
    const list = (Array.isArray(occurrences.body) ? occurrences.body : occurrences.body.entries) as Record<string, any>[];
    const maintenanceId = list[0]!.id as string;
    const moved = await s.a.request('POST', `${WINDOWS}/${created.body.id}/maintenances/${maintenanceId}/updates`, { status, description: 'Work has started' });
    expect(moved.status).toBe(201);
    return { windowId: created.body.id as number, maintenanceId };
  };
  const close = (w: { windowId: number; maintenanceId: string }) =>
    s.a.request('POST', `${WINDOWS}/${w.windowId}/maintenances/${w.maintenanceId}/updates`, { status: 'COMPLETED', description: 'Done' });

  it('shows a maintenance in progress on the page it is linked to, with its services under maintenance', async () => {
    const w = await windowInProgress({ statusPageVisibility: { enabled: true, statusPageIds: [pageId], serviceIds: [api] } });
    const res = await request(`${s.url}/status/${slug}`);
    const html = await res.body.text();
    expect(html).toContain('Maintenance in progress');
    expect(html).toContain(`data-service-id="${api}" data-state="UNDER_MAINTENANCE"`);
    expect(html).toContain(`data-service-id="${web}" data-state="OPERATIONAL"`);
    const summary = (await (await request(`${s.url}/status/${slug}/api/v2/summary.json`)).body.json()) as Record<string, any>;
    expect(summary.scheduled_maintenances).toEqual([expect.objectContaining({ id: w.maintenanceId, status: 'in_progress', impact: 'maintenance', components: [{ id: api, name: 'API' }] })]);
    expect(summary.status.indicator).toBe('maintenance');
    await close(w);
    const after = await (await request(`${s.url}/status/${slug}`)).body.text();
    expect(after).toContain('All systems operational');
  });

  it('keeps a window hidden from pages when its statusPageVisibility is not enabled', async () => {
    const w = await windowInProgress({ statusPageVisibility: { enabled: false, statusPageIds: [pageId], serviceIds: [web] } });
    const html = await (await request(`${s.url}/status/${slug}`)).body.text();
    expect(html).not.toContain('Maintenance in progress');
    await close(w);
  });

  describe('alerts and incident automation', () => {
    let alerting: Alerting;
    const clock = createManualClock(new Date());
    let recorder: ReturnType<typeof testRecorder>;
    beforeAll(() => {
      recorder = testRecorder(s.lookout.store);
      alerting = createAlerting({ store: s.lookout.store, bus: recorder.bus, logger: pino({ level: 'silent' }), clock, retryDelaysMs: [1000] });
    });
    afterAll(async () => alerting?.close());

    const checkWith = async (tags: string[], hookPath: string) => {
      const channel = await s.a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: `${receiver.url}${hookPath}` } });
      const res = await s.a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
        name: `Tagged ${randomUUID().slice(0, 6)}`, request: { url: 'https://shop.test/' }, tags, useGlobalAlertSettings: false,
        alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
        alertChannelSubscriptions: [{ alertChannelId: channel.body.id, activated: true }],
        triggerIncident: { serviceId: web, name: `Auto ${randomUUID().slice(0, 6)}` },
      });
      expect(res.status).toBe(201);
      return res.body as Record<string, any>;
    };
    const run = async (check: Record<string, any>, failing: boolean) => {
      const p: Partial<ProbeResult> = failing ? { hasFailures: true, errors: [{ code: 'ASSERTION_FAILED', message: 'down' }] } : { hasFailures: false };
      await recorder.record({ check: runnable(s.a, check), probe: probe({ at: clock.now(), ...p }) });
      await alerting.idle();
      clock.advance(60_000);
    };
    const incidentsNamed = async (name: string) => ((await s.a.request('GET', '/v1/status-pages/incidents?limit=100')).body.entries as { name: string }[]).filter((i) => i.name === name);

    it('silences the checks a window covers by silenceAlertsTags and suppresses their incident automation when asked', async () => {
      const path = `/hook/${randomUUID()}`;
      const check = await checkWith(['payments'], path);
      const w = await windowInProgress({ silenceAlertsTags: ['payments'], statusPageVisibility: { enabled: false, suppressAutoIncidents: true } });
      await run(check, true);
      expect(receiver.to(path)).toEqual([]);
      expect(await incidentsNamed(check.triggerIncident.name)).toEqual([]);
      await run(check, false);
      await close(w);
      await run(check, true);
      await alerting.idle();
      await expect.poll(() => receiver.to(path).map((r) => r.json.alertType)).toEqual(['ALERT_FAILURE']);
      expect(await incidentsNamed(check.triggerIncident.name)).toHaveLength(1);
    });

    it('does not silence checks outside the window\'s tags', async () => {
      const path = `/hook/${randomUUID()}`;
      const check = await checkWith(['search'], path);
      const w = await windowInProgress({ silenceAlertsTags: ['payments'] });
      await run(check, true);
      await expect.poll(() => receiver.to(path).map((r) => r.json.alertType)).toEqual(['ALERT_FAILURE']);
      await close(w);
    });
  });

  it('marks the results of runs made while a window covers the check, and only those', async () => {
    const target = await startHttpTarget();
    try {
      const check = await s.a.request('POST', '/v1/checks/api', { name: 'Marked', request: { url: `${target.http.url}/ok` }, tags: ['billing'], locations: ['eu-west-1'] });
      expect(check.status).toBe(201);
      const run = async () => {
        await s.lookout.maintenancePauses.refresh();
        const res = await s.a.request('POST', `/v1/checks/${check.body.id}/run`);
        expect(res.status).toBe(200);
        return res.body.results[0] as Record<string, any>;
      };
      expect(await run()).not.toHaveProperty('maintenanceWindowIds');
      const w = await windowInProgress({ silenceAlertsTags: ['billing'] });
      const marked = await run();
      expect(marked.maintenanceWindowIds).toEqual([w.windowId]);
      const stored = await s.a.request('GET', `/v1/check-results/${check.body.id}/${marked.id}`);
      expect(stored.body.maintenanceWindowIds).toEqual([w.windowId]);
      await close(w);
      expect(await run()).not.toHaveProperty('maintenanceWindowIds');
    } finally {
      await target.close();
    }
  });

  it('pauses the checks of a window with pauseAllChecks while it is in progress, and only those', async () => {
    const pauses = createMaintenancePauses({ store: s.lookout.store, bus: s.lookout.bus, logger: pino({ level: 'silent' }) });
    try {
      const tagged = await s.a.request('POST', '/v1/checks/api', { name: 'Paused one', request: { url: 'https://shop.test/' }, tags: ['db'] });
      const other = await s.a.request('POST', '/v1/checks/api', { name: 'Running one', request: { url: 'https://shop.test/' }, tags: ['web'] });
      const theirs = await s.b.request('POST', '/v1/checks/api', { name: 'Their one', request: { url: 'https://shop.test/' }, tags: ['db'] });
      const isPaused = async (id: string) => {
        await pauses.refresh();
        const row = await s.lookout.store.runner.check(id);
        return pauses.isPaused(toRunnable(row!));
      };
      const w = await windowInProgress({ pauseAllChecks: true, tags: ['db'] });
      expect(await isPaused(tagged.body.id)).toBe(true);
      expect(await isPaused(other.body.id)).toBe(false);
      expect(await isPaused(theirs.body.id)).toBe(false);
      await close(w);
      expect(await isPaused(tagged.body.id)).toBe(false);
    } finally {
      await pauses.close();
    }
  });
});
