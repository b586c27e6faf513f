import { describe, expect, it } from 'vitest';
import { describeCheckMaintenance, type CheckMaintenance } from '../../../web/src/maintenance/check-maintenance.js';

const going: CheckMaintenance = { state: 'IN_PROGRESS', windowId: 'w1', windowName: 'DB upgrade', startsAt: '2026-12-01T02:00:00Z', endsAt: '2026-12-01T04:00:00Z', paused: false };

describe('a check\'s maintenance in the console\'s words', () => {
  it('says "In maintenance until …" while one is going on, paused or with its alerts silenced', () => {
    expect(describeCheckMaintenance(going)).toBe('In maintenance until 2026-12-01 04:00 UTC (alerts silenced)');
    expect(describeCheckMaintenance({ ...going, paused: true })).toBe('In maintenance until 2026-12-01 04:00 UTC (paused)');
  });

  it('names the next maintenance when none is going on', () => {
    const next = { ...going, state: 'SCHEDULED' as const, startsAt: '2026-12-05T02:00:00Z', endsAt: '2026-12-05T03:00:00Z' };
    expect(describeCheckMaintenance(next)).toBe('Next maintenance 2026-12-05 02:00 UTC – 2026-12-05 03:00 UTC');
  });
});
