import { describe, expect, it } from 'vitest';
import { FREQUENCIES, MINUTES_FAILING_THRESHOLDS as DOMAIN_MINUTES, REMINDER_AMOUNTS as DOMAIN_REMINDERS, RETRY_TYPES as DOMAIN_RETRY_TYPES, SUB_MINUTE_OFFSETS as DOMAIN_OFFSETS } from '../../../src/domain/catalog.js';
import {
  alertingFormValues, checkAlertingInput, EMPTY_ALERTING, frequencyInput, frequencyOptions, frequencyValue, MINUTES_FAILING_THRESHOLDS, REMINDER_AMOUNTS, RETRY_TYPES, SUB_MINUTE_OFFSETS,
} from '../../../web/src/checks/check-alerting-form.js';
import { FORM_CHECK_TYPES } from '../../../web/src/checks/check-form-rules.js';

describe('the check form\'s frequency choice', () => {
  it('offers exactly the frequencies the API accepts for each type', () => {
    for (const type of FORM_CHECK_TYPES) {
      const offered = frequencyOptions(type).map((o) => frequencyInput(o.value));
      const minutes = offered.filter((o) => o.frequency !== 0).map((o) => o.frequency);
      expect(minutes, type).toEqual(FREQUENCIES[type].filter((f) => f !== 0));
      expect(offered.some((o) => o.frequency === 0), type).toBe(FREQUENCIES[type].includes(0));
    }
    expect([...SUB_MINUTE_OFFSETS]).toEqual(DOMAIN_OFFSETS);
  });

  it('names each choice in words and keeps a stored value outside the list', () => {
    expect(frequencyOptions('API').slice(0, 5).map((o) => o.label)).toEqual(['Every 10 seconds', 'Every 20 seconds', 'Every 30 seconds', 'Every minute', 'Every 2 minutes']);
    expect(frequencyOptions('URL').map((o) => o.label)).toContain('Every day');
    expect(frequencyOptions('URL', '7').at(-1)).toEqual({ value: '7', label: 'Every 7 minutes' });
  });

  it('sends seconds as frequency 0 with the offset, and clears the offset leaving sub-minute', () => {
    expect(frequencyValue(0, 20)).toBe('s20');
    expect(frequencyValue(5, 3)).toBe('5');
    expect(frequencyInput('s20')).toEqual({ frequency: 0, frequencyOffset: 20 });
    expect(frequencyInput('5', 0)).toEqual({ frequency: 5, frequencyOffset: null });
    expect(frequencyInput('5', 10)).toEqual({ frequency: 5 });
  });
});

describe('the check form\'s retries and alerting', () => {
  it('uses the contract\'s enums', () => {
    expect([...RETRY_TYPES]).toEqual([...DOMAIN_RETRY_TYPES]);
    expect([...MINUTES_FAILING_THRESHOLDS]).toEqual(DOMAIN_MINUTES);
    expect([...REMINDER_AMOUNTS]).toEqual(DOMAIN_REMINDERS);
  });

  it('sends no retries, the account\'s settings and (for a new check) no subscription list by default', () => {
    expect(checkAlertingInput(EMPTY_ALERTING, { retries: true })).toEqual({ retryStrategy: null, useGlobalAlertSettings: true });
    expect(checkAlertingInput(EMPTY_ALERTING, { retries: false })).toEqual({ useGlobalAlertSettings: true });
  });

  it('sends a retry strategy, custom escalation with reminders, and the channels ticked', () => {
    const values = {
      ...EMPTY_ALERTING, retryType: 'EXPONENTIAL' as const, baseBackoffSeconds: '30', maxRetries: '3', maxDurationSeconds: 'x', sameRegion: false,
      useGlobalAlertSettings: false, escalationType: 'TIME_BASED' as const, minutesFailingThreshold: '15', reminderAmount: '2', reminderInterval: '10',
      subscriptions: [{ alertChannelId: 7, activated: true }],
    };
    expect(checkAlertingInput(values, { retries: true })).toEqual({
      retryStrategy: { type: 'EXPONENTIAL', baseBackoffSeconds: 30, maxRetries: 3, maxDurationSeconds: null, sameRegion: false },
      useGlobalAlertSettings: false,
      alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 15 }, reminders: { amount: 2, interval: 10 } },
      alertChannelSubscriptions: [{ alertChannel: '7', activated: true }],
    });
    expect((checkAlertingInput({ ...values, retryType: 'SINGLE_RETRY' }, { retries: true }).retryStrategy)).toEqual({ type: 'SINGLE_RETRY', baseBackoffSeconds: 30, sameRegion: false });
  });

  it('reads a stored check\'s settings back into the form', () => {
    const values = alertingFormValues({
      retryStrategy: { type: 'LINEAR', baseBackoffSeconds: 5, maxRetries: 4, maxDurationSeconds: 120, sameRegion: false },
      useGlobalAlertSettings: false,
      alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 3 }, reminders: { amount: 100000, interval: 30 } },
      alertChannelSubscriptions: [{ alertChannelId: 2, activated: false }],
    });
    expect(values).toMatchObject({
      retryType: 'LINEAR', baseBackoffSeconds: '5', maxRetries: '4', maxDurationSeconds: '120', sameRegion: false, useGlobalAlertSettings: false,
      escalationType: 'RUN_BASED', failedRunThreshold: '3', reminderAmount: '100000', reminderInterval: '30', subscriptions: [{ alertChannelId: 2, activated: false }],
    });
    expect(alertingFormValues({ retryStrategy: null })).toMatchObject({ retryType: '', useGlobalAlertSettings: true, subscriptions: [] });
  });
});
