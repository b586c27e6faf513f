import { describe, expect, it } from 'vitest';
import { describeWindowState, windowState, type MaintenanceLike } from '../../../web/src/maintenance/window-state.js';

const m = (id: string, status: MaintenanceLike['status'], startsAt: string, endsAt: string): MaintenanceLike => ({ id, status, startsAt, endsAt });

describe('where a maintenance window stands', () => {
  it('is in progress while one of its maintenances is IN_PROGRESS or VERIFYING, until that one ends', () => {
    const state = windowState([m('b', 'SCHEDULED', '2026-12-02T02:00:00Z', '2026-12-02T03:00:00Z'), m('a', 'VERIFYING', '2026-12-01T02:00:00Z', '2026-12-01T03:30:00Z')]);
    expect(state).toEqual({ kind: 'IN_PROGRESS', maintenance: expect.objectContaining({ id: 'a' }) });
    expect(describeWindowState(state)).toBe('In progress until 2026-12-01 03:30 UTC');
  });

  it('is scheduled by its soonest SCHEDULED maintenance, skipping cancelled ones', () => {
    const state = windowState([
      m('c', 'CANCELLED', '2026-12-01T02:00:00Z', '2026-12-01T03:00:00Z'),
      m('late', 'SCHEDULED', '2026-12-03T02:00:00Z', '2026-12-03T03:00:00Z'),
      m('soon', 'SCHEDULED', '2026-12-02T02:00:00Z', '2026-12-02T03:00:00Z'),
    ]);
    expect(state).toEqual({ kind: 'SCHEDULED', maintenance: expect.objectContaining({ id: 'soon' }) });
    expect(describeWindowState(state)).toBe('Scheduled from 2026-12-02 02:00 UTC');
  });

  it('has ended with only completed or cancelled maintenances, or none', () => {
    expect(windowState([])).toEqual({ kind: 'ENDED' });
    expect(windowState([m('x', 'COMPLETED', '2026-12-01T02:00:00Z', '2026-12-01T03:00:00Z')])).toEqual({ kind: 'ENDED' });
    expect(describeWindowState({ kind: 'ENDED' })).toBe('Ended');
  });
});
