import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_RETENTION, type RetentionSettings } from '../../src/domain/retention-policy.js';
import { createCheckService } from '../../src/service/check-service.js';
import { createDataRetention } from '../../src/jobs/data-retention.js';
import type { Store } from '../../src/store/create-store.js';
import { BACKENDS, openTestStore } from '../support/backends.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { seedCheck } from '../support/retention-seed.js';

const logger = pino({ level: 'silent' });
const START = new Date('2024-06-30T12:00:00.000Z');

describe.each(BACKENDS)('data retention on $name', (backend) => {
  let store: Store;
  let assetsDir: string;
  let clock: ManualClock;
  const ago = (days: number) => new Date(clock.now().getTime() - days * DAY_MS);
  const ids = async (sql: string, params: unknown[]) => (await store.db.query<{ id: string }>(sql, params)).map((r) => String(r.id)).sort();
  /** A screenshot file in the assets folder, as the browser executor leaves it. */
  const asset = async (ageDays = 0) => {
    const file = `${randomUUID()}.png`;
    const at = ago(ageDays);
    await writeFile(path.join(assetsDir, file), 'png');
    await utimes(path.join(assetsDir, file), at, at);
    return file;
  };
  const has = (file: string) => existsSync(path.join(assetsDir, file));
  /** One pass of the job with `settings`, then closed. */
  const prune = async (settings: Partial<RetentionSettings> = {}, batchSize = 2) => {
    const job = createDataRetention({ store, settings: { ...DEFAULT_RETENTION, ...settings }, assetsDir, logger, batchSize, now: clock.now, intervalMs: 3_600_000 });
    try {
      return await job.pruneNow();
    } finally {
      await job.close();
    }
  };

  beforeAll(async () => {
    store = await openTestStore(backend);
    assetsDir = await mkdtemp(path.join(tmpdir(), 'lookout-assets-'));
    clock = createManualClock(START);
  });
  afterAll(async () => {
    await store?.close();
    await rm(assetsDir, { recursive: true, force: true });
  });

  it('deletes results past the retention in batches with their screenshot files, keeps newer ones and each check\'s latest', async () => {
    const { accountId, checkId, result } = await seedCheck(store);
    const oldFile = await asset(40);
    const newFile = await asset(1);
    const gone = [await result({ at: ago(45), files: [oldFile] }), await result({ at: ago(40) }), await result({ at: ago(32) })];
    const kept = [await result({ at: ago(30) }), await result({ at: ago(1), files: [newFile] })];
    // Another check whose only (old) result is its latest: it stays, the check still shows how it last ran.
    const lonely = await seedCheck(store);
    const latest = await lonely.result({ at: ago(200) });

    const report = await prune({ resultDays: 30 });

    expect(report.results).toBe(gone.length);
    expect(await ids('SELECT id FROM check_results WHERE check_id = $1', [checkId])).toEqual(kept.sort());
    expect(await ids('SELECT id FROM check_results WHERE check_id = $1', [lonely.checkId])).toEqual([latest]);
    expect(has(oldFile)).toBe(false);
    expect(has(newFile)).toBe(true);
    // Counted before they went: the roll-ups hold the pruned hours.
    const [rolled] = await store.db.query<{ n: number }>(
      'SELECT coalesce(sum(final_count), 0)::int AS n FROM result_rollups_hourly WHERE account_id = $1 AND bucket_start < $2', [accountId, ago(31)],
    );
    expect(rolled!.n).toBe(3);
  });

  it('keeps every result when results are kept for ever', async () => {
    const { checkId, result } = await seedCheck(store);
    const old = [await result({ at: ago(400) }), await result({ at: ago(300) })];
    await prune({ resultDays: 0 });
    expect(await ids('SELECT id FROM check_results WHERE check_id = $1', [checkId])).toEqual(old.sort());
  });

  it('deletes old heartbeat pings but keeps the latest ping each deadline runs from', async () => {
    const { accountId, checkId } = await seedCheck(store, 'HEARTBEAT');
    const ping = async (days: number, kind = 'ping') => {
      const id = randomUUID();
      await store.db.query('INSERT INTO heartbeat_pings (id, account_id, check_id, kind, received_at, method) VALUES ($1, $2, $3, $4, $5, $6)', [id, accountId, checkId, kind, ago(days), 'GET']);
      return id;
    };
    await ping(60);
    await ping(50, 'fail');
    const lastReal = await ping(40);
    await ping(35, 'start');
    const recent = await ping(2, 'start');
    await prune({ pingDays: 30 });
    // The newest ping that is not a start is 40 days old: the check's deadline runs from it.
    expect(await ids('SELECT id FROM heartbeat_pings WHERE check_id = $1', [checkId])).toEqual([lastReal, recent].sort());
  });

  it('deletes old alerts with their deliveries, but not the alert a state machine repeats nor one still being delivered', async () => {
    const { accountId, checkId } = await seedCheck(store, 'API');
    const alert = async (days: number) => {
      const id = randomUUID();
      await store.db.query(
        `INSERT INTO check_alerts (id, account_id, check_id, alert_type, name, check_type, payload, created_at) VALUES ($1, $2, $3, 'ALERT_FAILURE', 'x', 'API', '{}', $4)`,
        [id, accountId, checkId, ago(days)],
      );
      await store.db.query(
        `INSERT INTO alert_notifications (id, account_id, alert_id, check_id, channel_type, alert_type, status, attempt, created_at)
         VALUES ($1, $2, $3, $4, 'WEBHOOK', 'ALERT_FAILURE', 'SENT', 1, $5)`, [randomUUID(), accountId, id, checkId, ago(days)],
      );
      return id;
    };
    const old = await alert(200);
    const repeated = await alert(150);
    const pending = await alert(120);
    const recent = await alert(10);
    await store.db.query(`INSERT INTO check_alert_states (check_id, account_id, state, last_alert_id) VALUES ($1, $2, '{"status":"FAILING"}', $3)`, [checkId, accountId, repeated]);
    await store.db.query(
      `INSERT INTO alert_notifications (id, account_id, alert_id, check_id, channel_type, alert_type, status, attempt, next_attempt_at)
       VALUES ($1, $2, $3, $4, 'WEBHOOK', 'ALERT_FAILURE', 'PENDING', 2, $5)`, [randomUUID(), accountId, pending, checkId, clock.now()],
    );
    await prune({ alertDays: 90 });
    expect(await ids('SELECT id FROM check_alerts WHERE check_id = $1', [checkId])).toEqual([repeated, pending, recent].sort());
    expect(await ids('SELECT alert_id AS id FROM alert_notifications WHERE alert_id = $1', [old])).toEqual([]);
  });

  it('deletes finished test sessions past the retention with their runs and files, never a running one', async () => {
    const { accountId, checkId, result } = await seedCheck(store);
    const session = async (days: number, status: string) => {
      const id = randomUUID();
      await store.db.query(
        `INSERT INTO test_sessions (id, account_id, name, status, check_ids, created_at) VALUES ($1, $2, 'cli', $3, $4::uuid[], $5)`,
        [id, accountId, status, [checkId], ago(days)],
      );
      return id;
    };
    const finished = await session(40, 'PASSED');
    const running = await session(40, 'RUNNING');
    const recent = await session(5, 'FAILED');
    const storedFile = await asset(40);
    const submittedFile = await asset(40);
    await result({ at: ago(40), testSessionId: finished, files: [storedFile] });
    await store.testSessionRunResults.insert(accountId, finished, randomUUID(), { browserCheckResult: { jobAssets: [{ file: submittedFile }] } });
    const runningResult = await result({ at: ago(40), testSessionId: running });
    // The check's monitoring history keeps its latest run.
    await result({ at: ago(1) });

    await prune({ testSessionDays: 30 });

    expect(await ids('SELECT id FROM test_sessions WHERE account_id = $1', [accountId])).toEqual([running, recent].sort());
    expect(await ids('SELECT id FROM check_results WHERE test_session_id IS NOT NULL AND check_id = $1', [checkId])).toEqual([runningResult]);
    expect(await ids('SELECT id FROM test_session_run_results WHERE test_session_id = $1', [finished])).toEqual([]);
    expect([has(storedFile), has(submittedFile)]).toEqual([false, false]);
  });

  it('deletes error groups not seen for the retention, unless archived for ever', async () => {
    const { accountId, checkId } = await seedCheck(store, 'API');
    const group = async (table: string, days: number, archivedForever = false) => {
      const id = randomUUID();
      const check = table === 'error_groups' ? ', check_id' : '';
      await store.db.query(
        `INSERT INTO ${table} (id, account_id${check}, error_hash, cleaned_error_message, first_seen, last_seen, archived_forever)
         VALUES ($1, $2${check ? ', $6' : ''}, $3, 'boom', $4, $4, $5)`,
        [id, accountId, randomUUID(), ago(days), archivedForever, ...(check ? [checkId] : [])],
      );
      return id;
    };
    await group('error_groups', 120);
    const archived = await group('error_groups', 120, true);
    const seen = await group('error_groups', 10);
    await group('test_session_error_groups', 120);
    const sessionSeen = await group('test_session_error_groups', 10);
    await prune({ errorGroupDays: 90, resultDays: 30, testSessionDays: 30 });
    expect(await ids('SELECT id FROM error_groups WHERE account_id = $1', [accountId])).toEqual([archived, seen].sort());
    expect(await ids('SELECT id FROM test_session_error_groups WHERE account_id = $1', [accountId])).toEqual([sessionSeen]);
  });

  it('deletes old subscriber notifications with their deliveries unless still being delivered, and past maintenance reminders', async () => {
    const { accountId } = await seedCheck(store, 'API');
    const notification = async (days: number, status: string, delivery: string) => {
      const id = randomUUID();
      await store.db.query(
        `INSERT INTO subscriber_notifications (id, account_id, subject_type, subject_id, update_id, service_ids, facts, status, created_at)
         VALUES ($1, $2, 'INCIDENT', $3, $4, '{}', '{}', $5, $6)`, [id, accountId, randomUUID(), randomUUID(), status, ago(days)],
      );
      await store.db.query(
        `INSERT INTO subscriber_deliveries (id, account_id, notification_id, status_page_id, channel, address, address_key, status, created_at)
         VALUES ($1, $2, $3, $4, 'EMAIL', 'a@b.test', 'a@b.test', $5, $6)`, [randomUUID(), accountId, id, randomUUID(), delivery, ago(days)],
      );
      return id;
    };
    await notification(120, 'FANNED_OUT', 'SENT');
    const retrying = await notification(120, 'FANNED_OUT', 'PENDING');
    const unfanned = await notification(120, 'PENDING', 'SENT');
    const recent = await notification(10, 'FANNED_OUT', 'SENT');
    const [win] = await store.db.query<{ id: number }>(
      `INSERT INTO maintenance_windows (account_id, name, starts_at, ends_at, status_page_visibility) VALUES ($1, 'm', $2, $3, '{}') RETURNING id`,
      [accountId, ago(120), ago(119)],
    );
    const maintenance = randomUUID();
    await store.db.query('INSERT INTO maintenances (id, account_id, window_id, occurrence, starts_at, ends_at) VALUES ($1, $2, $3, 0, $4, $5)', [maintenance, accountId, win!.id, ago(120), ago(119)]);
    const reminder = async (minutes: number, startsDays: number, notified: boolean) => {
      const id = randomUUID();
      await store.db.query(
        `INSERT INTO maintenance_reminders (id, maintenance_id, minutes_before, starts_at, account_id, window_id, due_at, notified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $4, $7)`, [id, maintenance, minutes, ago(startsDays), accountId, win!.id, notified ? ago(startsDays) : null],
      );
      return id;
    };
    await reminder(60, 120, true);
    const unsent = await reminder(30, 120, false);
    const upcoming = await reminder(15, 5, true);

    await prune({ notificationDays: 90 });

    expect(await ids('SELECT id FROM subscriber_notifications WHERE account_id = $1', [accountId])).toEqual([retrying, unfanned, recent].sort());
    expect(await ids('SELECT id FROM maintenance_reminders WHERE account_id = $1', [accountId])).toEqual([unsent, upcoming].sort());
  });

  it('keeps the newest deployments of each project and any running one', async () => {
    const { accountId } = await seedCheck(store, 'API');
    const deploy = async (project: string, minutes: number, status = 'SUCCEEDED') => {
      const id = randomUUID();
      await store.db.query(
        `INSERT INTO deployments (id, account_id, project_logical_id, kind, status, created_at) VALUES ($1, $2, $3, 'DEPLOY', $4, $5)`,
        [id, accountId, project, status, new Date(clock.now().getTime() - minutes * 60_000)],
      );
      return id;
    };
    const running = await deploy('shop', 50, 'RUNNING');
    await deploy('shop', 40);
    const second = await deploy('shop', 20);
    const newest = await deploy('shop', 10);
    const other = await deploy('blog', 60);
    await prune({ deploymentsKept: 2 });
    expect(await ids('SELECT id FROM deployments WHERE account_id = $1', [accountId])).toEqual([running, second, newest, other].sort());
  });

  it('deletes audit log entries past their retention, keeping newer ones', async () => {
    const { accountId, checkId } = await seedCheck(store, 'API');
    await store.checks.update(accountId, checkId, { name: 'renamed', activated: true, groupId: null, tags: [] });
    const entries = await ids('SELECT id FROM audit_log WHERE resource_id = $1', [checkId]);
    expect(entries).toHaveLength(2);
    await store.db.query('UPDATE audit_log SET at = $2 WHERE id = $1', [entries[0], ago(400)]);
    await store.db.query('UPDATE audit_log SET at = $2 WHERE id = $1', [entries[1], ago(300)]);
    const report = await prune({ auditDays: 365 });
    expect(report.auditLog).toBeGreaterThanOrEqual(1);
    expect(await ids('SELECT id FROM audit_log WHERE resource_id = $1', [checkId])).toEqual([entries[1]]);
    await prune({ auditDays: 0 });
    expect(await ids('SELECT id FROM audit_log WHERE resource_id = $1', [checkId])).toEqual([entries[1]]);
  });

  it('deletes ended sessions, dead reset links and invitations a month past use, keeping live ones', async () => {
    const { accountId } = await seedCheck(store, 'API');
    const person = await store.people.create({ email: `${randomUUID()}@example.com`, name: 'Ann', passwordHash: 'x' });
    const session = (expiresAt: Date) => store.sessions.createSession({ tokenHash: randomUUID(), userId: person.id, accountId, csrfToken: 'c', method: 'password', expiresAt });
    const live = await session(new Date(Date.now() + DAY_MS));
    const ended = await session(new Date(Date.now() + DAY_MS));
    await store.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [ended.id]);
    await store.invitations.createPasswordReset({ tokenHash: 'dead-reset', userId: person.id, expiresAt: new Date(Date.now() + DAY_MS) });
    await store.invitations.createPasswordReset({ tokenHash: 'live-reset', userId: person.id, expiresAt: new Date(Date.now() + DAY_MS) });
    await store.db.query(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE token_hash = 'dead-reset'`);
    const invite = (email: string) => store.invitations.createInvitation({ accountId, email, role: 'READ_ONLY', tokenHash: randomUUID(), invitedBy: null, expiresAt: new Date(Date.now() + DAY_MS) });
    const old = await invite('old@example.com');
    const recent = await invite('recent@example.com');
    const open = await invite('open@example.com');
    await store.db.query(`UPDATE invitations SET accepted_at = now() - interval '31 days' WHERE id = $1`, [old.id]);
    await store.db.query(`UPDATE invitations SET accepted_at = now() - interval '2 days' WHERE id = $1`, [recent.id]);

    const report = await prune();
    expect(report.signIns).toBe(3);
    expect(await ids('SELECT id FROM sessions WHERE user_id = $1', [person.id])).toEqual([live.id]);
    expect((await store.db.query<{ token_hash: string }>('SELECT token_hash FROM password_resets WHERE user_id = $1', [person.id])).map((r) => r.token_hash)).toEqual(['live-reset']);
    expect(await ids('SELECT id FROM invitations WHERE account_id = $1', [accountId])).toEqual([recent.id, open.id].sort());
  });

  it('sweeps files no result lists once past the grace period, and leaves young files, listed files and other entries alone', async () => {
    const { result } = await seedCheck(store);
    const listed = await asset(5);
    await result({ at: ago(1), files: [listed] });
    const orphan = await asset(3);
    const young = await asset(0);
    await writeFile(path.join(assetsDir, 'notes.txt'), 'not an asset');
    await utimes(path.join(assetsDir, 'notes.txt'), ago(10), ago(10));
    await mkdir(path.join(assetsDir, 'checkly-storage'), { recursive: true });

    const report = await prune({});

    expect(report.orphanFiles).toBeGreaterThanOrEqual(1);
    expect([has(listed), has(orphan), has(young)]).toEqual([true, false, true]);
    expect(await readdir(assetsDir)).toEqual(expect.arrayContaining(['notes.txt', 'checkly-storage']));
  });

  it('deletes the screenshot files of a deleted check with it', async () => {
    const { accountId, checkId, result } = await seedCheck(store);
    const files = [await asset(0), await asset(0)];
    await result({ at: ago(1), files: [files[0]!] });
    await result({ at: ago(0.5), files: [files[1]!] });
    const other = await seedCheck(store);
    const otherFile = await asset(0);
    await other.result({ at: ago(1), files: [otherFile] });

    await createCheckService({ store, publicUrl: 'http://localhost', assetsDir, logger }).delete(accountId, checkId);

    expect(files.map(has)).toEqual([false, false]);
    expect(has(otherFile)).toBe(true);
  });

  it('joins a pass in progress instead of starting a second one, and does nothing once closed', async () => {
    const job = createDataRetention({ store, settings: DEFAULT_RETENTION, assetsDir, logger, now: clock.now });
    const [one, two] = [job.pruneNow(), job.pruneNow()];
    expect(one).toBe(two);
    await one;
    await job.close();
    expect(Object.values(await job.pruneNow()).every((n) => n === 0)).toBe(true);
  });

  it('starts a pass on its own as soon as it is created, and says what it pruned', async () => {
    const { result } = await seedCheck(store, 'API');
    await result({ at: ago(100) });
    await result({ at: ago(1) });
    let announced!: (line: Record<string, unknown>) => void;
    const pruned = new Promise<Record<string, unknown>>((resolve) => (announced = resolve));
    const listening = pino({ level: 'info' }, { write: (line: string) => announced(JSON.parse(line)) });
    const job = createDataRetention({ store, settings: DEFAULT_RETENTION, assetsDir, logger: listening, now: clock.now });
    try {
      expect(await pruned).toMatchObject({ msg: 'pruned old data', results: expect.any(Number) });
    } finally {
      await job.close();
    }
  });
});
