import { describe, expect, it } from 'vitest';
import { alertSeverity, alertText, alertTitle, defaultWebhookBody, reminderMessage, templateVariables, withAlertLinks, type AlertMessage } from '../../src/domain/alert-message.js';
import { alertLinks } from '../../src/domain/alert-links.js';
import { testAlertMessage } from '../../src/domain/test-alert-message.js';
import { WEBHOOK_TEMPLATE_VARIABLES } from '../../src/domain/webhook-template-variables.js';
import { alertProfile } from '../../src/domain/alert-profile.js';
import { ALERT_TYPES, INITIAL_ALERT_STATE, dueReminders, nextAlertState, type AlertState, type EscalationSettings } from '../../src/domain/alert-state.js';
import { withAlertSettingsDefaults } from '../../src/domain/check-defaults.js';
import { isRetryableFailure, retryDelayMs } from '../../src/domain/delivery-retry.js';
import { nextReminderAt } from '../../src/domain/next-reminder-at.js';
import { combineParallelRun } from '../../src/domain/parallel-run.js';
import { resultAlertFacts, sslDaysOf } from '../../src/domain/result-alert-facts.js';
import { sslAlertWanted } from '../../src/domain/ssl-alert-rule.js';
import { unixWindow, unixWindowIssues } from '../../src/domain/unix-window.js';
import { webhookSignature } from '../../src/domain/webhook-signature.js';

const MINUTE = 60_000;
const T = new Date('2026-05-01T10:00:00Z');
const at = (minutes: number) => new Date(T.getTime() + minutes * MINUTE);
const escalation = (overrides: Record<string, unknown> = {}) => withAlertSettingsDefaults(overrides) as EscalationSettings;

describe('alertProfile', () => {
  const check = (data: Record<string, unknown>, subscriptions = [{ alertChannelId: 1, activated: true }, { alertChannelId: 2, activated: false }]) => ({
    checkType: 'API', name: 'Shop', subscriptions,
    data: { useGlobalAlertSettings: true, alertSettings: escalation({ runBasedEscalation: { failedRunThreshold: 3 } }), muted: false, runParallel: false, locations: ['eu-west-1'], privateLocations: [], tags: ['a'], ...data },
  });
  const account = { runBasedEscalation: { failedRunThreshold: 2 } };

  it.each([
    ['useGlobalAlertSettings true takes the account settings', {}, 2],
    ['useGlobalAlertSettings false takes the check settings', { useGlobalAlertSettings: false }, 3],
  ])('%s', (_label, data, threshold) => {
    expect(alertProfile(check(data), null, account).settings.runBasedEscalation.failedRunThreshold).toBe(threshold);
  });

  it('completes missing settings with the defaults of conventions.md', () => {
    expect(alertProfile(check({ useGlobalAlertSettings: false, alertSettings: null }), null, null).settings).toEqual({
      escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, timeBasedEscalation: { minutesFailingThreshold: 5 },
      reminders: { amount: 0, interval: 5 }, parallelRunFailureThreshold: { enabled: false, percentage: 10 },
    });
  });

  it('keeps only activated subscriptions and counts public and private locations', () => {
    const p = alertProfile(check({ privateLocations: ['office'], runParallel: true }), null, null);
    expect(p).toMatchObject({ channelIds: [1], locations: ['eu-west-1', 'office'], runParallel: true, groupName: null, sslCheckDomain: null });
  });

  it('lets the group decide settings, subscriptions and muting, and merges tags', () => {
    const group = {
      name: 'Shop group',
      data: { muted: true, tags: ['g'], useGlobalAlertSettings: false, alertSettings: escalation({ runBasedEscalation: { failedRunThreshold: 5 } }), locations: ['us-east-1'] },
      subscriptions: [{ alertChannelId: 9, activated: true }],
    };
    expect(alertProfile(check({}), group, account)).toMatchObject({
      muted: true, channelIds: [9], groupName: 'Shop group', locations: ['us-east-1'], tags: ['g', 'a'],
      settings: { runBasedEscalation: { failedRunThreshold: 5 } },
    });
  });

  it.each([['a domain', 'example.com', 'example.com'], ['blank', '  ', null], ['null', null, null]])('reads sslCheckDomain when it is %s', (_l, domain, expected) => {
    expect(alertProfile(check({ sslCheckDomain: domain }), null, null).sslCheckDomain).toBe(expected);
  });
});

describe('nextReminderAt', () => {
  const failing = (o: Partial<AlertState> = {}): AlertState => ({ ...INITIAL_ALERT_STATE, status: 'FAILING', consecutiveFailures: 1, failingSince: at(0), failureAlertSent: true, lastAlertAt: at(0), ...o });

  it.each<[string, AlertState, Record<string, unknown>, Date | null]>([
    ['passing', INITIAL_ALERT_STATE, { reminders: { amount: 5, interval: 5 } }, null],
    ['reminders off', failing(), { reminders: { amount: 0, interval: 5 } }, null],
    ['the first reminder, an interval after the alert', failing(), { reminders: { amount: 2, interval: 5 } }, at(5)],
    ['a later reminder, an interval after the last one', failing({ remindersSent: 1, lastReminderAt: at(5) }), { reminders: { amount: 2, interval: 5 } }, at(10)],
    ['all reminders sent', failing({ remindersSent: 2, lastReminderAt: at(10) }), { reminders: { amount: 2, interval: 5 } }, null],
    ['unlimited reminders', failing({ remindersSent: 500, lastReminderAt: at(10) }), { reminders: { amount: 100000, interval: 15 } }, at(25)],
    ['failing without an alert sent', failing({ failureAlertSent: false }), { reminders: { amount: 2, interval: 5 } }, null],
    ['degraded after a degraded alert', { ...failing(), status: 'DEGRADED', failureAlertSent: false, degradedAlertSent: true }, { reminders: { amount: 1, interval: 30 } }, at(30)],
  ])('is right for %s', (_label, state, settings, expected) => {
    expect(nextReminderAt(state, escalation(settings))).toEqual(expected);
  });

  it('agrees with dueReminders: nothing is due a millisecond before, one reminder is due at that time', () => {
    const settings = escalation({ reminders: { amount: 3, interval: 5 } });
    let state = nextAlertState(INITIAL_ALERT_STATE, { hasFailures: true, isDegraded: false, startedAt: at(0) }, settings).state;
    for (let n = 1; n <= 3; n++) {
      const due = nextReminderAt(state, settings)!;
      expect(dueReminders(state, settings, new Date(due.getTime() - 1)).reminders).toEqual([]);
      const now = dueReminders(state, settings, due);
      expect(now.reminders).toEqual([{ alertType: 'ALERT_FAILURE_REMAIN', sequence: n }]);
      state = now.state;
    }
    expect(nextReminderAt(state, settings)).toBeNull();
  });
});

describe('combineParallelRun', () => {
  const loc = (hasFailures: boolean, isDegraded = false, minutes = 0, hasErrors = false) => ({ hasFailures, hasErrors, isDegraded, startedAt: at(minutes) });

  it.each([
    ['all passing', [loc(false), loc(false)], { hasFailures: false, isDegraded: false }, 0],
    ['one failed location', [loc(true), loc(false), loc(false)], { hasFailures: true, isDegraded: false }, 1],
    ['an errored location counts as failed', [loc(false, false, 0, true), loc(false)], { hasFailures: true, isDegraded: false }, 1],
    ['a degraded location', [loc(false, true), loc(false)], { hasFailures: false, isDegraded: true }, 0],
  ])('combines %s', (_label, runs, flags, failed) => {
    const { run, parallel } = combineParallelRun(runs);
    expect(run).toMatchObject(flags);
    expect(parallel).toEqual({ failedLocations: failed, totalLocations: runs.length });
  });

  it('starts the combined run when its first location started', () => {
    expect(combineParallelRun([loc(false, false, 3), loc(false, false, 1), loc(false, false, 2)]).run.startedAt).toEqual(at(1));
  });
});

describe('delivery retries', () => {
  it.each<[string, { status?: number; retryable?: boolean }, boolean]>([
    ['a network failure', {}, true],
    ['HTTP 500', { status: 500 }, true],
    ['HTTP 503', { status: 503 }, true],
    ['HTTP 429', { status: 429 }, true],
    ['HTTP 408', { status: 408 }, true],
    ['HTTP 400', { status: 400 }, false],
    ['HTTP 404', { status: 404 }, false],
    ['HTTP 401', { status: 401 }, false],
    ['a missing configuration', { retryable: false }, false],
    ['an SMTP 451 marked retryable', { status: 451, retryable: true }, true],
    ['an SMTP 550 marked not retryable', { status: 550, retryable: false }, false],
  ])('%s is retried: %s', (_label, failure, expected) => {
    expect(isRetryableFailure(failure)).toBe(expected);
  });

  it.each([[1, 10], [2, 60], [3, 300], [4, null], [0, null]])('after attempt %i waits %s', (attempt, expected) => {
    expect(retryDelayMs(attempt, [10, 60, 300])).toBe(expected);
  });

  it('makes a single attempt when there are no retry delays', () => {
    expect(retryDelayMs(1, [])).toBeNull();
  });
});

describe('certificate alerts', () => {
  it.each([
    [true, 30, 30, true],
    [true, 30, 31, false],
    [true, 7, 3, true],
    [true, 1, -2, true],
    [false, 30, 1, false],
  ])('sslExpiry %s threshold %i with %i days left alerts: %s', (sslExpiry, sslExpiryThreshold, days, expected) => {
    expect(sslAlertWanted({ sslExpiry, sslExpiryThreshold }, days)).toBe(expected);
  });

  it.each([
    ['the HTTP executor\'s details.ssl', { ssl: { daysRemaining: 12, subject: 'CN=shop.test, O=Shop' } }, { daysRemaining: 12, domain: 'shop.test' }],
    ['details.sslDaysRemaining', { sslDaysRemaining: 4.7 }, { daysRemaining: 4, domain: null }],
    ['no certificate', { ssl: null }, null],
    ['no details', null, null],
  ])('reads the days left from %s', (_label, details, expected) => {
    expect(sslDaysOf(details)).toEqual(expected);
  });
});

describe('resultAlertFacts', () => {
  it('takes the errors of the run, the response status and where and when it ran', () => {
    const facts = resultAlertFacts({
      id: 'r1', hasFailures: true, responseTime: 12.5, runLocation: 'eu-west-1', startedAt: '2026-05-01T10:00:00.000Z',
      errors: [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' }, { code: 'X', message: 'second' }],
      apiCheckResult: { response: { status: 502 } },
    });
    expect(facts).toEqual({
      checkResultId: 'r1', errorMessage: 'connect ECONNREFUSED 127.0.0.1:1; second', responseTime: 12.5, runLocation: 'eu-west-1',
      startedAt: '2026-05-01T10:00:00.000Z', statusCode: 502,
    });
  });

  it('describes failed assertions when a failed run has no errors', () => {
    const facts = resultAlertFacts({ id: 'r2', hasFailures: true, errors: [] }, {
      assertions: [{ source: 'STATUS_CODE', property: null, comparison: 'EQUALS', target: '200', regex: null, actual: '503', passed: false }],
      statusCode: 503,
    });
    expect(facts.errorMessage).toBe('Assertion failed: STATUS_CODE EQUALS 200 (actual: 503)');
    expect(facts.statusCode).toBe(503);
  });

  it('has no error for a passing run and survives a result without the optional fields', () => {
    expect(resultAlertFacts({})).toEqual({ checkResultId: null, errorMessage: null, responseTime: null, runLocation: null, startedAt: null, statusCode: null });
  });
});

describe('alert messages', () => {
  const message: AlertMessage = {
    alertType: 'ALERT_FAILURE', title: alertTitle('ALERT_FAILURE', 'Shop'), checkId: 'c1', checkName: 'Shop', checkType: 'API', checkResultId: 'r1',
    errorMessage: 'boom', groupName: null, responseTime: 10, runLocation: 'eu-west-1', startedAt: '2026-05-01T10:00:00.000Z', tags: ['t'],
    statusCode: null, isReminder: false, reminderSequence: 0, sslDaysRemaining: null, sslDomain: null, failedLocations: 2, totalLocations: 4,
  };

  it('has a title and a severity for every alert type', () => {
    for (const type of ALERT_TYPES) {
      expect(alertTitle(type, 'Shop', { daysRemaining: 3, domain: 'shop.test' })).toMatch(/Shop/);
      expect(['failure', 'degraded', 'recovery', 'ssl']).toContain(alertSeverity(type));
    }
  });

  it.each([[5, 'expires in 5 days'], [1, 'expires in 1 day'], [0, 'expires today'], [-1, 'has expired']])('titles a certificate with %i days left "%s"', (days, words) => {
    expect(alertTitle('ALERT_SSL', 'Shop', { daysRemaining: days, domain: 'shop.test' })).toBe(`The SSL certificate of shop.test ("Shop") ${words}`);
  });

  it('marks reminders and numbers them', () => {
    expect(reminderMessage(message, 'ALERT_FAILURE_REMAIN', 2)).toMatchObject({
      alertType: 'ALERT_FAILURE_REMAIN', isReminder: true, reminderSequence: 2, title: '"Shop" is still failing (reminder 2)', checkResultId: 'r1',
    });
  });

  it('gives templates the spec\'s variables, the alert winning over account variables of the same name', () => {
    const vars = templateVariables(message, { CHECK_NAME: 'account value', REGION: 'eu' });
    expect(vars).toMatchObject({ CHECK_NAME: 'Shop', REGION: 'eu', ALERT_TYPE: 'ALERT_FAILURE', TAGS: ['t'], IS_REMINDER: false, REMINDER_SEQUENCE: 0, SSL_DAYS_REMAINING: '' });
    for (const name of ['ALERT_TITLE', 'CHECK_ID', 'CHECK_TYPE', 'CHECK_RESULT_ID', 'CHECK_ERROR_MESSAGE', 'GROUP_NAME', 'RESPONSE_TIME', 'RUN_LOCATION', 'STARTED_AT']) {
      expect(vars).toHaveProperty(name);
    }
  });

  it('gives templates exactly the variables of WEBHOOK_TEMPLATE_VARIABLES (the list the console shows), account variables besides', () => {
    const vars = templateVariables(withAlertLinks(message, 'https://lookout.test/'), { REGION: 'eu' });
    expect(Object.keys(vars).filter((k) => k !== 'REGION').sort()).toEqual(WEBHOOK_TEMPLATE_VARIABLES.map((v) => v.name).sort());
    expect(vars).toMatchObject({ CHECK_URL: 'https://lookout.test/checks/c1', RESULT_URL: 'https://lookout.test/checks/c1?result=r1', IS_TEST: false });
  });

  it('links an alert to its check and its result in the console, keeping links already set', () => {
    expect(alertLinks('https://lookout.test/base/', 'c 1', null)).toEqual({ checkUrl: 'https://lookout.test/base/checks/c%201', resultUrl: null });
    const linked = withAlertLinks(message, 'https://lookout.test');
    expect(linked).toMatchObject({ checkUrl: 'https://lookout.test/checks/c1', resultUrl: 'https://lookout.test/checks/c1?result=r1' });
    expect(withAlertLinks(linked, 'https://elsewhere.test').checkUrl).toBe('https://lookout.test/checks/c1');
    expect(alertText(linked)).toContain('Check page: https://lookout.test/checks/c1');
    expect(alertText(linked)).toContain('Result page: https://lookout.test/checks/c1?result=r1');
    expect(JSON.parse(defaultWebhookBody(linked))).toMatchObject({ checkUrl: 'https://lookout.test/checks/c1', resultUrl: 'https://lookout.test/checks/c1?result=r1' });
  });

  it('marks the test message of "Send test" as a test, linking to the alert channels', () => {
    const test = testAlertMessage(7, 'https://lookout.test', new Date('2026-05-01T10:00:00Z'));
    expect(test).toMatchObject({ isTest: true, checkId: 'test-alert-channel-7', checkUrl: 'https://lookout.test/alert-channels', resultUrl: null });
    expect(test.title).toMatch(/^\[TEST\]/);
    expect(templateVariables(test)).toMatchObject({ IS_TEST: true, CHECK_URL: 'https://lookout.test/alert-channels', RESULT_URL: '' });
    expect(JSON.parse(defaultWebhookBody(test))).toMatchObject({ isTest: true });
  });

  it('lists the facts in the plain-text body, parallel locations included', () => {
    expect(alertText(message)).toContain('Failed locations: 2 of 4');
    expect(alertText(message)).not.toContain('Group:');
  });

  it('signs bodies with hex HMAC-SHA256 (RFC 4231 test case 2)', () => {
    expect(webhookSignature('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});

describe('unix windows', () => {
  it.each<[number | undefined, number | undefined, boolean]>([[undefined, undefined, true], [10, undefined, true], [undefined, 10, true], [10, 20, true], [20, 20, false], [30, 20, false]])(
    'from %s to %s is valid: %s',
    (from, to, valid) => {
      expect(unixWindowIssues(from, to).length === 0).toBe(valid);
    },
  );

  it('turns seconds into dates', () => {
    expect(unixWindow(1_767_225_600, undefined)).toEqual({ from: new Date('2026-01-01T00:00:00Z') });
  });
});
