import { describe, expect, it } from 'vitest';
import { dueReminders, reminderDueAt } from '../../src/domain/maintenance-reminders.js';

const START = new Date('2030-06-02T12:00:00Z');
const before = (minutes: number) => new Date(START.getTime() - minutes * 60_000);

describe('dueReminders', () => {
  it('records nothing before the first reminder is due', () => {
    expect(dueReminders(START, [60, 1440], new Set(), before(1441))).toEqual([]);
  });

  it('records a reminder once its time has come', () => {
    expect(dueReminders(START, [60, 1440], new Set(), before(1440))).toEqual([{ minutesBefore: 1440, dueAt: before(1440), superseded: false }]);
  });

  it('does not record a reminder again', () => {
    expect(dueReminders(START, [60, 1440], new Set([1440]), before(120))).toEqual([]);
    expect(dueReminders(START, [60, 1440], new Set([1440]), before(60))).toEqual([{ minutesBefore: 60, dueAt: before(60), superseded: false }]);
  });

  it('of reminders due together, keeps the one nearest the start for delivery and supersedes the others', () => {
    expect(dueReminders(START, [1440, 60, 180], new Set(), before(30))).toEqual([
      { minutesBefore: 60, dueAt: before(60), superseded: false },
      { minutesBefore: 180, dueAt: before(180), superseded: true },
      { minutesBefore: 1440, dueAt: before(1440), superseded: true },
    ]);
  });

  it('records no reminder once the start has come', () => {
    expect(dueReminders(START, [60], new Set(), START)).toEqual([]);
  });

  it('treats a minute count listed twice as one reminder', () => {
    expect(dueReminders(START, [60, 60], new Set(), before(10))).toHaveLength(1);
  });
});

describe('reminderDueAt', () => {
  it('is the start less the minutes', () => {
    expect(reminderDueAt(START, 10_080).toISOString()).toBe('2030-05-26T12:00:00.000Z');
  });
});
