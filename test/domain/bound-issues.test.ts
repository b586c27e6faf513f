import { describe, expect, it } from 'vitest';
import { boundIssues, describeIssues, validationError } from '../../src/domain/lookout-error.js';

const issue = (key: string, message = 'is invalid') => ({ key, message });

describe('bounded validation issues', () => {
  it('keeps each key once, the first issue for it, in order', () => {
    expect(boundIssues([issue('a', 'first'), issue('b'), issue('a', 'second')], 5)).toEqual({ issues: [issue('a', 'first'), issue('b')], omitted: 0 });
  });

  it('lists at most max keys and counts the other keys, not their repeats', () => {
    const issues = [...Array.from({ length: 30 }, (_, i) => issue(`tags.${i}`)), issue('tags.0'), issue('tags.29')];
    expect(boundIssues(issues, 20)).toEqual({ issues: issues.slice(0, 20), omitted: 10 });
  });

  it.each([
    [[issue('name', 'is required')], 3, 0, '"name" is required'],
    [[issue('(root)', 'must be object')], 3, 0, 'body must be object'],
    [[issue('a'), issue('b'), issue('c'), issue('d')], 2, 0, '"a" is invalid. "b" is invalid. 2 more invalid keys are not listed'],
    [[issue('a')], 2, 1, '"a" is invalid. 1 more invalid key is not listed'],
  ])('describes %j (max %i, %i dropped before) as one bounded sentence each', (issues, max, before, message) => {
    expect(describeIssues(issues, max, before)).toBe(message);
  });

  it('builds a VALIDATION error whose message stays short for 100,000 issues while keeping them all for the edge', () => {
    const issues = Array.from({ length: 100_000 }, (_, i) => issue(`locations.${i}`, 'must be one of the 22 allowed values'));
    const err = validationError(issues, 'payload');
    expect(err.code).toBe('VALIDATION');
    expect(err.message.length).toBeLessThan(2000);
    expect(err.message).toMatch(/99980 more invalid keys are not listed$/);
    expect(err.issues).toHaveLength(100_000);
  });
});
