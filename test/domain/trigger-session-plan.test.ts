import { describe, expect, it } from 'vitest';
import { withRunOverrides } from '../../src/domain/run-overrides.js';
import { triggeredSessionPlan } from '../../src/domain/trigger-session-plan.js';

describe('a checkly trigger request as a test session plan', () => {
  it('keeps tag lists as alternatives of all-of sets, trimmed, dropping empty lists', () => {
    expect(triggeredSessionPlan({ targetTags: [['shop', ' api '], [], ['blog', '']] })).toMatchObject({ tags: [['shop', 'api'], ['blog']] });
  });

  it('selects everything when no tags and no ids are given, under the CLI\'s default name', () => {
    const plan = triggeredSessionPlan({ targetTags: [] });
    expect(plan).toEqual({ name: 'Triggered Session', checkIds: undefined, tags: undefined, runLocation: undefined, environment: undefined, overrides: {} });
  });

  it('asks for each check id once', () => {
    const id = '0b3a2c4e-1f00-4d6b-9a7e-1c2d3e4f5a6b';
    expect(triggeredSessionPlan({ checkId: [id, id] })).toMatchObject({ checkIds: [id] });
  });

  it.each([
    ['a public region', { type: 'PUBLIC', region: 'us-east-1' } as const, 'us-east-1'],
    ['a private location (by slug)', { type: 'PRIVATE', slugName: 'office', id: 'x' } as const, 'office'],
    ['a bare region', 'eu-west-1', 'eu-west-1'],
  ])('runs in %s', (_what, runLocation, expected) => {
    expect(triggeredSessionPlan({ runLocation })).toMatchObject({ runLocation: expected });
  });

  it.each([
    ['run-time variables', { environmentVariables: [{ key: 'A', value: 'b' }] }, { environmentVariables: [{ key: 'A', value: 'b' }] }],
    ['a retry strategy', { testRetryStrategy: { type: 'FIXED', maxRetries: 2 } }, { retryStrategy: { type: 'FIXED', maxRetries: 2 } }],
    ['the CLI without --retries: no retries', { environmentVariables: [], testRetryStrategy: null }, { retryStrategy: null }],
    ['a request without the retry key: each check\'s own', {}, {}],
  ])('carries %s to the runs', (_what, req, overrides) => {
    expect(triggeredSessionPlan(req).overrides).toEqual(overrides);
  });
});

describe('a check as one run with overrides sees it', () => {
  const data = {
    name: 'Cart', retryStrategy: { type: 'LINEAR', maxRetries: 1 },
    environmentVariables: [{ key: 'A', value: 'check' }, { key: 'B', value: 'check', secret: false }],
  };

  it('keeps the check as it is without overrides', () => {
    expect(withRunOverrides(data, undefined)).toBe(data);
    expect(withRunOverrides(data, {})).toEqual(data);
  });

  it('lets run-time variables win by key, as secrets, keeping the others', () => {
    expect(withRunOverrides(data, { environmentVariables: [{ key: 'B', value: 'run' }, { key: 'C', value: 'run' }] }).environmentVariables).toEqual([
      { key: 'A', value: 'check' }, { key: 'B', value: 'run', secret: true }, { key: 'C', value: 'run', secret: true },
    ]);
  });

  it.each([
    ['replaces the retry strategy', { type: 'FIXED', maxRetries: 3 }, { type: 'FIXED', maxRetries: 3 }],
    ['runs without retries on null', null, null],
  ])('%s', (_what, retryStrategy, expected) => {
    expect(withRunOverrides(data, { retryStrategy }).retryStrategy).toEqual(expected);
  });

  it('never changes the check it was given', () => {
    const copy = structuredClone(data);
    withRunOverrides(data, { environmentVariables: [{ key: 'A', value: 'run' }], retryStrategy: null });
    expect(data).toEqual(copy);
  });
});
