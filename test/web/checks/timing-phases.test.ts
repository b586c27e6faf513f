import { describe, expect, it } from 'vitest';
import { timingPhaseRows } from '../../../web/src/checks/timing-phases.js';

describe('the timing phases waterfall', () => {
  it('lays the phases end to end in the order they happen', () => {
    const rows = timingPhaseRows({ dns: 10, tcp: 20, tls: 30, firstByte: 40, download: 0, total: 100 });
    expect(rows.map((r) => [r.name, r.offsetPercent, r.widthPercent])).toEqual([
      ['dns', 0, 10], ['tcp', 10, 20], ['tls', 30, 30], ['firstByte', 60, 40], ['download', 100, 0],
    ]);
  });

  it('leaves missing phases out and uses their sum when the total is smaller or absent', () => {
    expect(timingPhaseRows({ dns: null, tcp: 5, firstByte: 15 }).map((r) => [r.name, r.offsetPercent, r.widthPercent])).toEqual([['tcp', 0, 25], ['firstByte', 25, 75]]);
  });

  it('draws nothing without phases', () => {
    expect(timingPhaseRows(null)).toEqual([]);
    expect(timingPhaseRows({ total: 0, dns: 0 })).toEqual([{ name: 'dns', label: 'DNS', ms: 0, offsetPercent: 0, widthPercent: 0 }]);
  });
});
