import { describe, expect, it } from 'vitest';
import { bulkOutcomeMessage, bulkQuestion } from '../../../web/src/checks/bulk-check-action.js';

const names: Record<string, string> = { a: 'Homepage', b: 'Checkout' };

describe('bulk check action wording', () => {
  it('asks before acting, saying how many checks and what follows', () => {
    expect(bulkQuestion('pause', 3)).toBe('Pause 3 checks? They stop running until resumed.');
    expect(bulkQuestion('delete', 1)).toBe('Delete 1 check? Their results and settings are removed for good.');
  });

  it('says what was done and names each check that failed with its reasons', () => {
    expect(bulkOutcomeMessage('mute', { succeeded: ['a', 'b'], failed: [] }, (id) => names[id]!)).toBe('Muted 2 checks.');
    expect(bulkOutcomeMessage('delete', { succeeded: ['a'], failed: [{ id: 'b', problems: ['Check not found.'] }] }, (id) => names[id]!))
      .toBe('Deleted 1 check. Could not delete 1 check (Checkout: Check not found.).');
    expect(bulkOutcomeMessage('resume', { succeeded: [], failed: [] }, (id) => id)).toBe('No check to resume.');
  });
});
