import { describe, expect, it } from 'vitest';
import { auditFilterFromSearch, auditFilterSearch, auditLogPath } from '../../../web/src/audit-log/audit-filter.js';

describe("the audit log's filters", () => {
  it('reads what the address names, dropping unknown actions and malformed dates', () => {
    expect(auditFilterFromSearch('?resourceType=check&action=explode&from=2026-01-02&to=yesterday')).toEqual({
      resourceType: 'check', resourceId: '', actorId: '', action: '', from: '2026-01-02', to: '',
    });
  });

  it('writes back only what is set, and round-trips', () => {
    const filter = auditFilterFromSearch('?actorId=u1&action=delete');
    expect(auditFilterSearch(filter)).toBe('?actorId=u1&action=delete');
    expect(auditFilterSearch(auditFilterFromSearch(''))).toBe('');
  });

  it('asks the API for whole local days: from midnight to the next midnight', () => {
    const path = auditLogPath(auditFilterFromSearch('?from=2026-03-01&to=2026-03-01&resourceType=check'), '42', 20);
    const params = new URL(path, 'http://x').searchParams;
    expect(params.get('limit')).toBe('20');
    expect(params.get('nextId')).toBe('42');
    expect(Date.parse(params.get('to')!) - Date.parse(params.get('from')!)).toBe(24 * 3600_000);
    expect(new Date(params.get('from')!).getDate()).toBe(1);
  });
});
