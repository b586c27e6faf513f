import { describe, expect, it } from 'vitest';
import { DELIVERY_ERROR_CODES } from '../../../src/domain/delivery-error-code.js';
import { testOutcomeWords } from '../../../web/src/alert-channels/test-outcome-words.js';

describe('the words of a "Send test" answer', () => {
  it('says a delivery as the server does', () => {
    expect(testOutcomeWords({ ok: true, code: null, message: 'Test message delivered (the receiver answered 200).' })).toBe('Test message delivered (the receiver answered 200).');
  });

  it('puts words of its own before the reason for every code the server answers', () => {
    for (const code of DELIVERY_ERROR_CODES) {
      const words = testOutcomeWords({ ok: false, code, message: 'Test message not delivered: because.' });
      expect(words).toMatch(/^The .+\. Test message not delivered: because\.$/);
    }
    expect(testOutcomeWords({ ok: false, code: 'RECEIVER_REJECTED', message: 'x' })).toBe('The receiver refused the message. x');
  });
});
