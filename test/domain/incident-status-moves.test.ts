import { describe, expect, it } from 'vitest';
import {
  INCIDENT_STATUSES,
  incidentElapsedSeconds,
  incidentProgress,
  incidentStatusMove,
  incidentStatusMoveIssue,
  orderIncidentUpdates,
  type IncidentStatus,
  type IncidentUpdateTiming,
} from '../../src/domain/incident-status-moves.js';

const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const at = (minute: number) => new Date(T0 + minute * 60_000);
const update = (minute: number, status?: IncidentStatus | null): IncidentUpdateTiming => ({ publicIncidentUpdateDate: at(minute), status });

describe('incident status moves', () => {
  it.each([
    { from: null, to: 'INVESTIGATING', move: 'open' },
    { from: null, to: 'IDENTIFIED', move: 'open' },
    { from: null, to: 'MONITORING', move: 'open' },
    { from: null, to: 'RESOLVED', move: 'open' },
    { from: 'INVESTIGATING', to: 'INVESTIGATING', move: 'same' },
    { from: 'INVESTIGATING', to: 'IDENTIFIED', move: 'forward' },
    { from: 'INVESTIGATING', to: 'MONITORING', move: 'skip' },
    { from: 'INVESTIGATING', to: 'RESOLVED', move: 'skip' },
    { from: 'IDENTIFIED', to: 'INVESTIGATING', move: 'back' },
    { from: 'IDENTIFIED', to: 'IDENTIFIED', move: 'same' },
    { from: 'IDENTIFIED', to: 'MONITORING', move: 'forward' },
    { from: 'IDENTIFIED', to: 'RESOLVED', move: 'skip' },
    { from: 'MONITORING', to: 'INVESTIGATING', move: 'back' },
    { from: 'MONITORING', to: 'IDENTIFIED', move: 'back' },
    { from: 'MONITORING', to: 'MONITORING', move: 'same' },
    { from: 'MONITORING', to: 'RESOLVED', move: 'forward' },
    { from: 'RESOLVED', to: 'INVESTIGATING', move: 'reopen' },
    { from: 'RESOLVED', to: 'IDENTIFIED', move: 'reopen' },
    { from: 'RESOLVED', to: 'MONITORING', move: 'reopen' },
    { from: 'RESOLVED', to: 'RESOLVED', move: 'resolve-again' },
  ] as const)('allows the move from $from to $to as $move', ({ from, to, move }) => {
    expect(incidentStatusMove(from, to)).toBe(move);
    expect(incidentStatusMoveIssue(from, to)).toBeNull();
  });

  it.each([null, ...INCIDENT_STATUSES])('allows an update without a status on an incident that is %s', (from) => {
    expect(incidentStatusMoveIssue(from, undefined)).toBeNull();
    expect(incidentStatusMoveIssue(from, null)).toBeNull();
  });

  it.each([
    { name: 'the legacy MAINTENANCE status is refused with a pointer to the legacy resource', from: 'INVESTIGATING', to: 'MAINTENANCE', message: /legacy \/v1\/incidents/ },
    { name: 'a lower-case status is refused', from: 'MONITORING', to: 'resolved', message: /must be one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED \(the incident is MONITORING\)/ },
    { name: 'an unknown status on a first update is refused', from: null, to: 'OPEN', message: /^must be one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED$/ },
    { name: 'a status that is not a string is refused', from: 'RESOLVED', to: 3, message: /must be one of/ },
  ] as const)('$name', ({ from, to, message }) => {
    const issue = incidentStatusMoveIssue(from, to);
    expect(issue?.key).toBe('status');
    expect(issue?.message).toMatch(message);
  });
});

describe('incident last update status and duration', () => {
  it.each([
    { name: 'an incident without updates is investigating and has no duration', updates: [], status: 'INVESTIGATING', duration: null },
    { name: 'an open incident has no duration', updates: [update(0, 'INVESTIGATING'), update(10, 'IDENTIFIED')], status: 'IDENTIFIED', duration: null },
    { name: 'a resolved incident lasts from the first update to the resolution', updates: [update(0, 'INVESTIGATING'), update(30, 'RESOLVED')], status: 'RESOLVED', duration: 1800 },
    { name: 'a second resolution without re-opening does not extend the duration', updates: [update(0, 'INVESTIGATING'), update(30, 'RESOLVED'), update(90, 'RESOLVED')], status: 'RESOLVED', duration: 1800 },
    { name: 'a re-opened and resolved-again incident lasts until the final resolution', updates: [update(0, 'INVESTIGATING'), update(30, 'RESOLVED'), update(60, 'INVESTIGATING'), update(90, 'RESOLVED')], status: 'RESOLVED', duration: 5400 },
    { name: 'a re-opened incident resolved twice after re-opening lasts until the first of those resolutions', updates: [update(0, 'INVESTIGATING'), update(30, 'RESOLVED'), update(60, 'MONITORING'), update(90, 'RESOLVED'), update(120, 'RESOLVED')], status: 'RESOLVED', duration: 5400 },
    { name: 'a re-opened incident has no duration until it is resolved again', updates: [update(0, 'INVESTIGATING'), update(30, 'RESOLVED'), update(60, 'IDENTIFIED')], status: 'IDENTIFIED', duration: null },
    { name: 'a backfilled incident with a single resolved update has no duration', updates: [update(0, 'RESOLVED')], status: 'RESOLVED', duration: null },
    { name: 'an incident of resolved updates only has no duration', updates: [update(0, 'RESOLVED'), update(5, 'RESOLVED')], status: 'RESOLVED', duration: null },
    { name: 'a backfilled resolution that was re-opened and resolved counts from the first update', updates: [update(0, 'RESOLVED'), update(10, 'INVESTIGATING'), update(20, 'RESOLVED')], status: 'RESOLVED', duration: 1200 },
    { name: 'an update without a status keeps the status before it', updates: [update(0, 'MONITORING'), update(10)], status: 'MONITORING', duration: null },
    { name: 'an update without a status after a resolution keeps the incident resolved', updates: [update(0, 'INVESTIGATING'), update(10, 'RESOLVED'), update(20, null)], status: 'RESOLVED', duration: 600 },
    { name: 'a first update without a status counts as investigating', updates: [update(0), update(10, 'RESOLVED')], status: 'RESOLVED', duration: 600 },
    { name: 'a duration is rounded down to whole seconds', updates: [update(0, 'INVESTIGATING'), update(0.0199, 'RESOLVED')], status: 'RESOLVED', duration: 1 },
  ] as const)('$name', ({ updates, status, duration }) => {
    expect(incidentProgress(updates)).toEqual({ lastUpdateStatus: status, duration });
  });

  it.each([
    { name: 'updates listed newest first are put in time order', updates: [update(90, 'RESOLVED'), update(60, 'INVESTIGATING'), update(30, 'RESOLVED'), update(0, 'INVESTIGATING')], status: 'RESOLVED', duration: 5400 },
    { name: 'a resolution backfilled before a later update is not the last status', updates: [update(0, 'INVESTIGATING'), update(40, 'MONITORING'), update(20, 'RESOLVED')], status: 'MONITORING', duration: null },
    { name: 'an update listed first but dated last decides the status', updates: [update(50, 'IDENTIFIED'), update(0, 'INVESTIGATING'), update(10, 'RESOLVED')], status: 'IDENTIFIED', duration: null },
  ] as const)('$name', ({ updates, status, duration }) => {
    expect(incidentProgress(updates)).toEqual({ lastUpdateStatus: status, duration });
  });

  it('orders updates with the same public date by creation time, then by the given order', () => {
    const a = { ...update(0, 'INVESTIGATING'), created_at: at(5) };
    const b = { ...update(0, 'RESOLVED'), created_at: at(1) };
    const c = update(0, 'IDENTIFIED');
    const d = update(0, 'MONITORING');
    expect(orderIncidentUpdates([a, b])).toEqual([b, a]);
    expect(orderIncidentUpdates([d, c])).toEqual([d, c]);
    expect(incidentProgress([a, b]).lastUpdateStatus).toBe('INVESTIGATING');
  });

  it.each([
    { name: 'an ongoing incident has lasted until now', updates: [update(0, 'INVESTIGATING'), update(10, 'MONITORING')], now: 45, elapsed: 2700 },
    { name: 'a resolved incident shows its duration whatever the time', updates: [update(0, 'INVESTIGATING'), update(30, 'RESOLVED')], now: 500, elapsed: 1800 },
    { name: 'an incident without updates shows no length', updates: [], now: 10, elapsed: null },
    { name: 'an incident dated after now has lasted zero seconds', updates: [update(60, 'INVESTIGATING')], now: 10, elapsed: 0 },
  ] as const)('$name', ({ updates, now, elapsed }) => {
    expect(incidentElapsedSeconds(updates, at(now))).toBe(elapsed);
  });
});
