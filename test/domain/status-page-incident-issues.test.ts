import { describe, expect, it } from 'vitest';
import { incidentServiceIssues, incidentUpdateStatusIssues } from '../../src/domain/status-page-incident-issues.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('incidentServiceIssues', () => {
  it('names each service that is not the account\'s, and each listed twice (any case)', () => {
    expect(incidentServiceIssues([{ id: A }], new Set([A]))).toEqual([]);
    expect(incidentServiceIssues([{ id: A }, { id: B }, { id: A.toUpperCase() }], new Set([A])).map((i) => i.key)).toEqual(['services.1.id', 'services.2.id']);
  });
});

describe('incidentUpdateStatusIssues', () => {
  it('accepts the four statuses and a missing one, and names the others by position', () => {
    expect(incidentUpdateStatusIssues(null, ['INVESTIGATING', null, undefined, 'RESOLVED', 'MONITORING'], 'incidentUpdates')).toEqual([]);
    const issues = incidentUpdateStatusIssues(null, ['INVESTIGATING', 'MAINTENANCE', 7], 'incidentUpdates');
    expect(issues.map((i) => i.key)).toEqual(['incidentUpdates.1.status', 'incidentUpdates.2.status']);
    expect(issues[0]!.message).toContain('legacy /v1/incidents');
    expect(incidentUpdateStatusIssues('RESOLVED', ['DONE'])).toEqual([{ key: 'status', message: expect.stringContaining('(the incident is RESOLVED)') }]);
  });
});
