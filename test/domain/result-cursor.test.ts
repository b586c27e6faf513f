import { describe, expect, it } from 'vitest';
import { decodeResultCursor, encodeResultCursor } from '../../src/domain/result-cursor.js';

describe('result cursors', () => {
  it('read back the start time and id they were made from', () => {
    const cursor = { startedAt: new Date('2024-05-01T10:11:12.345Z'), id: '6f1c7a3e-2b4d-4c5e-8f90-a1b2c3d4e5f6' };
    const text = encodeResultCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeResultCursor(text)).toEqual(cursor);
  });

  it.each([
    ['an empty text', ''],
    ['text outside base64url', 'a+b/c='],
    ['no separator', Buffer.from('1714558272345').toString('base64url')],
    ['an id that is no UUID', Buffer.from('1714558272345.abc').toString('base64url')],
    ['a time that is no number', Buffer.from('soon.6f1c7a3e-2b4d-4c5e-8f90-a1b2c3d4e5f6').toString('base64url')],
    ['a time of more than 15 digits', Buffer.from('9999999999999999.6f1c7a3e-2b4d-4c5e-8f90-a1b2c3d4e5f6').toString('base64url')],
  ])('reject %s', (_label, text) => {
    expect(decodeResultCursor(text)).toBeUndefined();
  });
});
