import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/domain/catalog.js';
import {
  ALERT_TYPES, INITIAL_ALERT_STATE, UNLIMITED_REMINDERS, channelWants, dueReminders, nextAlertState, runStatus,
  type AlertState, type AlertType, type EscalationSettings, type ParallelOutcome,
} from '../../src/domain/alert-state.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (minute: number) => new Date(T0 + minute * 60_000);

const settings = (over: Partial<EscalationSettings> = {}): EscalationSettings => ({
  ...structuredClone(DEFAULT_ALERT_SETTINGS),
  ...over,
});
const runBased = (failedRunThreshold: number, over: Partial<EscalationSettings> = {}) =>
  settings({ escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold }, ...over });
const timeBased = (minutesFailingThreshold: number) =>
  settings({ escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold } });

type Kind = 'P' | 'D' | 'F';
const run = (kind: Kind, minute: number) => ({ hasFailures: kind === 'F', isDegraded: kind === 'D', startedAt: at(minute) });

/** Feeds FINAL runs (one letter each, `every` minutes apart from minute 0) and lists the alerts of each run ('-' for none). */
function replay(sequence: string, s: EscalationSettings, every = 1): { alerts: string[]; state: AlertState } {
  let state: AlertState = { ...INITIAL_ALERT_STATE };
  const alerts: string[] = [];
  [...sequence].forEach((kind, i) => {
    const next = nextAlertState(state, run(kind as Kind, i * every), s);
    expect(next.alerts.length).toBeLessThanOrEqual(1);
    alerts.push(next.alerts[0] ?? '-');
    state = next.state;
  });
  return { alerts, state };
}

describe('alert transitions with the default threshold of one failed run', () => {
  it.each([
    ['passing stays quiet', 'PP', ['-', '-']],
    ['passing to degraded alerts degraded', 'PD', ['-', 'ALERT_DEGRADED']],
    ['passing to failing alerts failure', 'PF', ['-', 'ALERT_FAILURE']],
    ['a first run that fails alerts failure', 'F', ['ALERT_FAILURE']],
    ['staying degraded sends nothing more', 'PDDD', ['-', 'ALERT_DEGRADED', '-', '-']],
    ['staying failed sends nothing more', 'PFFF', ['-', 'ALERT_FAILURE', '-', '-']],
    ['degraded to passing alerts the degraded recovery', 'PDP', ['-', 'ALERT_DEGRADED', 'ALERT_DEGRADED_RECOVERY']],
    ['failing to passing alerts recovery', 'PFP', ['-', 'ALERT_FAILURE', 'ALERT_RECOVERY']],
    ['degraded to failing escalates', 'PDF', ['-', 'ALERT_DEGRADED', 'ALERT_DEGRADED_FAILURE']],
    ['failing to degraded de-escalates', 'PFD', ['-', 'ALERT_FAILURE', 'ALERT_FAILURE_DEGRADED']],
    ['failing, degraded then passing ends with a degraded recovery', 'PFDP', ['-', 'ALERT_FAILURE', 'ALERT_FAILURE_DEGRADED', 'ALERT_DEGRADED_RECOVERY']],
    ['degraded, failing then passing ends with a recovery', 'PDFP', ['-', 'ALERT_DEGRADED', 'ALERT_DEGRADED_FAILURE', 'ALERT_RECOVERY']],
    ['flapping between failing and degraded notifies every move', 'FDFD', ['ALERT_FAILURE', 'ALERT_FAILURE_DEGRADED', 'ALERT_DEGRADED_FAILURE', 'ALERT_FAILURE_DEGRADED']],
    ['a new failure after a recovery alerts again', 'FPF', ['ALERT_FAILURE', 'ALERT_RECOVERY', 'ALERT_FAILURE']],
  ])('%s', (_name, sequence, expected) => {
    expect(replay(sequence, runBased(1)).alerts).toEqual(expected);
  });
});

describe('run-based escalation', () => {
  it.each([
    ['one failed run below a threshold of 2 alerts nothing', 2, 'PF', ['-', '-']],
    ['the second consecutive failed run alerts failure (remain) at a threshold of 2', 2, 'PFF', ['-', '-', 'ALERT_FAILURE_REMAIN']],
    ['failed runs after the alert send nothing more', 2, 'PFFF', ['-', '-', 'ALERT_FAILURE_REMAIN', '-']],
    ['a recovery after the alert alerts recovery', 2, 'PFFP', ['-', '-', 'ALERT_FAILURE_REMAIN', 'ALERT_RECOVERY']],
    ['a recovery before the threshold sends no recovery', 2, 'PFP', ['-', '-', '-']],
    ['a passing run between failures restarts the count', 2, 'FPFPF', ['-', '-', '-', '-', '-']],
    ['the fifth consecutive failed run alerts at a threshold of 5', 5, 'FFFFFF', ['-', '-', '-', '-', 'ALERT_FAILURE_REMAIN', '-']],
    ['the second degraded run alerts degraded (remain) at a threshold of 2', 2, 'PDD', ['-', '-', 'ALERT_DEGRADED_REMAIN']],
    ['a degraded recovery before the threshold is silent', 2, 'PDP', ['-', '-', '-']],
    ['degraded to failing notifies even below the threshold', 2, 'PDF', ['-', '-', 'ALERT_DEGRADED_FAILURE']],
    ['failing to degraded notifies even below the threshold', 2, 'PFD', ['-', '-', 'ALERT_FAILURE_DEGRADED']],
    ['the de-escalation counts as the degraded alert for the recovery', 2, 'PFDDP', ['-', '-', 'ALERT_FAILURE_DEGRADED', '-', 'ALERT_DEGRADED_RECOVERY']],
    ['the escalation counts as the failure alert for the recovery', 3, 'DFP', ['-', 'ALERT_DEGRADED_FAILURE', 'ALERT_RECOVERY']],
    ['failures after an escalation do not alert again', 2, 'DFFF', ['-', 'ALERT_DEGRADED_FAILURE', '-', '-']],
    ['degraded runs do not count towards the failure threshold', 2, 'DDFF', ['-', 'ALERT_DEGRADED_REMAIN', 'ALERT_DEGRADED_FAILURE', '-']],
  ])('%s', (_name, threshold, sequence, expected) => {
    expect(replay(sequence, runBased(threshold)).alerts).toEqual(expected);
  });

  it('remembers the failing streak in the state', () => {
    const { state } = replay('PFF', runBased(2));
    expect(state).toEqual({
      status: 'FAILING', consecutiveFailures: 2, failingSince: at(1), lastAlertType: 'ALERT_FAILURE_REMAIN', lastAlertAt: at(2),
      failureAlertSent: true, degradedAlertSent: false, remindersSent: 0, lastReminderAt: null,
    });
  });

  it('forgets the streak but keeps the last alert after a recovery', () => {
    const { state } = replay('FFP', runBased(1));
    expect(state).toEqual({ ...INITIAL_ALERT_STATE, lastAlertType: 'ALERT_RECOVERY', lastAlertAt: at(2) });
  });

  it('keeps the last alert of an earlier episode through a silent recovery', () => {
    const { alerts, state } = replay('FFPFP', runBased(2));
    expect(alerts).toEqual(['-', 'ALERT_FAILURE_REMAIN', 'ALERT_RECOVERY', '-', '-']);
    expect(state).toEqual({ ...INITIAL_ALERT_STATE, lastAlertType: 'ALERT_RECOVERY', lastAlertAt: at(2) });
  });

  it('does not change the state it was given', () => {
    const before: AlertState = { ...INITIAL_ALERT_STATE };
    nextAlertState(before, run('F', 0), runBased(1));
    expect(before).toEqual(INITIAL_ALERT_STATE);
  });
});

describe('time-based escalation', () => {
  it.each([
    ['failing for 5 minutes alerts at a threshold of 5 (runs every minute)', 5, 1, 'PFFFFFF', ['-', '-', '-', '-', '-', '-', 'ALERT_FAILURE_REMAIN']],
    ['failing for 4 minutes alerts nothing at a threshold of 5', 5, 1, 'PFFFFFP', ['-', '-', '-', '-', '-', '-', '-']],
    ['failing for 10 minutes alerts at a threshold of 10 (runs every 5 minutes)', 10, 5, 'FFFF', ['-', '-', 'ALERT_FAILURE_REMAIN', '-']],
    ['a threshold crossed between runs alerts at the next run', 15, 10, 'FFFP', ['-', '-', 'ALERT_FAILURE_REMAIN', 'ALERT_RECOVERY']],
    ['a single failed run never alerts at once', 5, 60, 'F', ['-']],
    ['degraded for 5 minutes alerts degraded', 5, 5, 'DDP', ['-', 'ALERT_DEGRADED_REMAIN', 'ALERT_DEGRADED_RECOVERY']],
    ['degraded to failing notifies at once', 30, 1, 'DF', ['-', 'ALERT_DEGRADED_FAILURE']],
    ['failing after degraded starts its own clock', 5, 5, 'DDF', ['-', 'ALERT_DEGRADED_REMAIN', 'ALERT_DEGRADED_FAILURE']],
  ])('%s', (_name, minutes, every, sequence, expected) => {
    expect(replay(sequence, timeBased(minutes), every).alerts).toEqual(expected);
  });

  it('counts from the first failed run, not from the last passing one', () => {
    const { state } = replay('PPFF', timeBased(5), 2);
    expect(state.failingSince).toEqual(at(4));
    expect(state.failureAlertSent).toBe(false);
  });
});

describe('parallel runs', () => {
  const withThreshold = (enabled: boolean, percentage: number) =>
    settings({ parallelRunFailureThreshold: { enabled, percentage } });
  const p = (failedLocations: number, totalLocations: number): ParallelOutcome => ({ failedLocations, totalLocations });

  it.each([
    ['any failed location fails the run without a threshold', withThreshold(false, 50), { hasFailures: true, isDegraded: false }, p(1, 10), 'FAILING'],
    ['no failed location passes without a threshold', withThreshold(false, 50), { hasFailures: false, isDegraded: false }, p(0, 10), 'PASSING'],
    ['a third of locations failing is below a 50% threshold', withThreshold(true, 50), { hasFailures: true, isDegraded: false }, p(1, 3), 'PASSING'],
    ['half the locations failing reaches a 50% threshold', withThreshold(true, 50), { hasFailures: true, isDegraded: false }, p(2, 4), 'FAILING'],
    ['exactly 30% failing reaches a 30% threshold', withThreshold(true, 30), { hasFailures: true, isDegraded: false }, p(3, 10), 'FAILING'],
    ['20% failing stays below a 30% threshold', withThreshold(true, 30), { hasFailures: true, isDegraded: false }, p(2, 10), 'PASSING'],
    ['a run below the threshold that was slow is degraded', withThreshold(true, 50), { hasFailures: true, isDegraded: true }, p(1, 4), 'DEGRADED'],
    ['every location failing reaches a 100% threshold', withThreshold(true, 100), { hasFailures: true, isDegraded: false }, p(5, 5), 'FAILING'],
    ['a run without locations does not fail', withThreshold(true, 10), { hasFailures: true, isDegraded: false }, p(0, 0), 'PASSING'],
    ['a failed run without parallel counts ignores the threshold', withThreshold(true, 100), { hasFailures: true, isDegraded: false }, undefined, 'FAILING'],
    ['failing beats degraded', withThreshold(false, 10), { hasFailures: true, isDegraded: true }, undefined, 'FAILING'],
    ['a slow passing run is degraded', withThreshold(false, 10), { hasFailures: false, isDegraded: true }, undefined, 'DEGRADED'],
  ])('%s', (_name, s, r, parallel, expected) => {
    expect(runStatus(r, s, parallel)).toBe(expected);
  });

  it('counts a parallel run over all locations once towards the run threshold', () => {
    const s = runBased(2, { parallelRunFailureThreshold: { enabled: true, percentage: 50 } });
    const failedRun = { hasFailures: true, isDegraded: false };
    let state: AlertState = { ...INITIAL_ALERT_STATE };
    const first = nextAlertState(state, { ...failedRun, startedAt: at(0) }, s, p(3, 4));
    expect(first).toMatchObject({ alerts: [], state: { consecutiveFailures: 1 } });
    state = first.state;
    const below = nextAlertState(state, { ...failedRun, startedAt: at(1) }, s, p(1, 4));
    expect(below).toMatchObject({ alerts: [], state: { status: 'PASSING', consecutiveFailures: 0 } });
    state = nextAlertState(below.state, { ...failedRun, startedAt: at(2) }, s, p(2, 4)).state;
    expect(nextAlertState(state, { ...failedRun, startedAt: at(3) }, s, p(4, 4)).alerts).toEqual(['ALERT_FAILURE_REMAIN']);
  });
});

describe('reminders', () => {
  const withReminders = (amount: number, interval: number, threshold = 1) =>
    runBased(threshold, { reminders: { amount, interval } });

  /** The reminders sent when asking at each of `minutes`, starting from the state after `sequence`. */
  function remind(sequence: string, s: EscalationSettings, minutes: number[]): string[] {
    let { state } = replay(sequence, s);
    return minutes.map((m) => {
      const due = dueReminders(state, s, at(m));
      state = due.state;
      return due.reminders.map((r) => `${r.alertType}#${r.sequence}`)[0] ?? '-';
    });
  }

  it.each([
    ['two reminders five minutes apart after a failure alert', 'F', withReminders(2, 5), [4, 5, 9, 10, 15, 30], ['-', 'ALERT_FAILURE_REMAIN#1', '-', 'ALERT_FAILURE_REMAIN#2', '-', '-']],
    ['no reminders with an amount of 0', 'F', withReminders(0, 5), [5, 10, 60], ['-', '-', '-']],
    ['reminders for a degraded alert', 'D', withReminders(1, 10), [9, 10, 20], ['-', 'ALERT_DEGRADED_REMAIN#1', '-']],
    ['no reminder before the failure alert was sent', 'F', withReminders(5, 1, 3), [1, 2, 3], ['-', '-', '-']],
    ['reminders counted from the alert that crossed the threshold', 'FF', withReminders(5, 5, 2), [5, 6, 11], ['-', 'ALERT_FAILURE_REMAIN#1', 'ALERT_FAILURE_REMAIN#2']],
    ['one reminder for a late caller, then the interval again', 'F', withReminders(5, 5), [60, 61, 65], ['ALERT_FAILURE_REMAIN#1', '-', 'ALERT_FAILURE_REMAIN#2']],
    ['no reminders once recovered', 'FP', withReminders(5, 5), [10, 20], ['-', '-']],
    ['no reminders for a check that never failed', 'PP', withReminders(5, 5), [10, 20], ['-', '-']],
  ])('%s', (_name, sequence, s, minutes, expected) => {
    expect(remind(sequence, s, minutes)).toEqual(expected);
  });

  it('keeps reminding without limit when the amount is 100000', () => {
    const sent = remind('F', withReminders(UNLIMITED_REMINDERS, 5), Array.from({ length: 20 }, (_, i) => (i + 1) * 5));
    expect(sent).toHaveLength(20);
    expect(sent.at(-1)).toBe('ALERT_FAILURE_REMAIN#20');
  });

  it('restarts the reminders for the new status after a de-escalation', () => {
    const s = withReminders(2, 5);
    let { state } = replay('F', s);
    state = dueReminders(state, s, at(5)).state;
    expect(state).toMatchObject({ remindersSent: 1, lastReminderAt: at(5), lastAlertType: 'ALERT_FAILURE_REMAIN' });
    const moved = nextAlertState(state, run('D', 7), s);
    expect(moved.alerts).toEqual(['ALERT_FAILURE_DEGRADED']);
    expect(moved.state).toMatchObject({ remindersSent: 0, lastReminderAt: null, lastAlertAt: at(7) });
    expect(dueReminders(moved.state, s, at(11)).reminders).toEqual([]);
    expect(dueReminders(moved.state, s, at(12)).reminders).toEqual([{ alertType: 'ALERT_DEGRADED_REMAIN', sequence: 1 }]);
  });

  it('leaves the state untouched when nothing is due', () => {
    const s = withReminders(2, 5);
    const { state } = replay('F', s);
    expect(dueReminders(state, s, at(1)).state).toBe(state);
  });
});

describe('alert invariants over random run sequences', () => {
  const kinds = fc.array(fc.constantFrom<Kind>('P', 'D', 'F'), { maxLength: 30 });
  const anySettings = fc.oneof(
    fc.integer({ min: 1, max: 5 }).map((n) => runBased(n)),
    fc.constantFrom(5, 10, 15, 30).map(timeBased),
  );

  it('sends a recovery only after a notification for the status it recovers from, and at most one alert per run', () => {
    fc.assert(fc.property(kinds, anySettings, fc.integer({ min: 1, max: 20 }), (sequence, s, every) => {
      let state: AlertState = { ...INITIAL_ALERT_STATE };
      let notifiedFailure = false;
      let notifiedDegraded = false;
      sequence.forEach((kind, i) => {
        const { state: next, alerts } = nextAlertState(state, run(kind, i * every), s);
        expect(alerts.length).toBeLessThanOrEqual(1);
        const alert = alerts[0];
        if (alert === 'ALERT_RECOVERY') expect(notifiedFailure).toBe(true);
        if (alert === 'ALERT_DEGRADED_RECOVERY') expect(notifiedDegraded).toBe(true);
        if (state.status === 'FAILING' && kind === 'D') expect(alert).toBe('ALERT_FAILURE_DEGRADED');
        if (state.status === 'DEGRADED' && kind === 'F') expect(alert).toBe('ALERT_DEGRADED_FAILURE');
        if (state.status === 'FAILING' && kind === 'P') expect(alert === 'ALERT_RECOVERY').toBe(notifiedFailure);
        if (state.status === 'DEGRADED' && kind === 'P') expect(alert === 'ALERT_DEGRADED_RECOVERY').toBe(notifiedDegraded);
        expect(next.status).toBe(({ P: 'PASSING', D: 'DEGRADED', F: 'FAILING' } as const)[kind]);
        if (next.status !== state.status) {
          notifiedFailure = false;
          notifiedDegraded = false;
        }
        if (alert === 'ALERT_FAILURE' || alert === 'ALERT_FAILURE_REMAIN' || alert === 'ALERT_DEGRADED_FAILURE') notifiedFailure = true;
        if (alert === 'ALERT_DEGRADED' || alert === 'ALERT_DEGRADED_REMAIN' || alert === 'ALERT_FAILURE_DEGRADED') notifiedDegraded = true;
        expect(next.failureAlertSent).toBe(notifiedFailure);
        expect(next.degradedAlertSent).toBe(notifiedDegraded);
        state = next;
      });
    }), { numRuns: 500 });
  });
});

describe('which channels take which alerts', () => {
  const flags = (sendFailure: boolean, sendDegraded: boolean, sendRecovery: boolean, sslExpiry?: boolean) =>
    ({ sendFailure, sendDegraded, sendRecovery, sslExpiry });
  const expected: Record<AlertType, 'failure' | 'degraded' | 'recovery' | 'ssl'> = {
    ALERT_FAILURE: 'failure', ALERT_FAILURE_REMAIN: 'failure', ALERT_DEGRADED_FAILURE: 'failure',
    ALERT_DEGRADED: 'degraded', ALERT_DEGRADED_REMAIN: 'degraded', ALERT_FAILURE_DEGRADED: 'degraded',
    ALERT_RECOVERY: 'recovery', ALERT_DEGRADED_RECOVERY: 'recovery', ALERT_SSL: 'ssl',
  };

  it.each(ALERT_TYPES)('sends %s only to channels with the matching flag', (type) => {
    const kind = expected[type];
    expect(channelWants(flags(kind === 'failure', kind === 'degraded', kind === 'recovery', kind === 'ssl'), type)).toBe(true);
    expect(channelWants(flags(kind !== 'failure', kind !== 'degraded', kind !== 'recovery', kind !== 'ssl'), type)).toBe(false);
  });

  it('does not send certificate alerts to a channel that does not say it wants them', () => {
    expect(channelWants({ sendFailure: true, sendDegraded: true, sendRecovery: true }, 'ALERT_SSL')).toBe(false);
  });
});
