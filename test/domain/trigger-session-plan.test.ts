import { describe, expect, it } from 'vitest';
import { triggeredSessionPlan } from '../../src/domain/trigger-session-plan.js';

describe('a checkly trigger request as a test session plan', () => {
  it('keeps tag lists as alternatives of all-of sets, trimmed, dropping empty lists', () => {
    expect(triggeredSessionPlan({ targetTags: [['shop', ' api '], [], ['blog', '']] })).toMatchObject({ ok: true, tags: [['shop', 'api'], ['blog']] });
  });

  it('selects everything when no tags and no ids are given, under the CLI\'s default name', () => {
    const plan = triggeredSessionPlan({ targetTags: [] });
    expect(plan).toEqual({ ok: true, name: 'Triggered Session', checkIds: undefined, tags: undefined, runLocation: undefined, environment: undefined });
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
    expect(triggeredSessionPlan({ runLocation })).toMatchObject({ ok: true, runLocation: expected });
  });

  it.each([
    ['run-time variables', { environmentVariables: [{ key: 'A', value: 'b' }] }, ['environmentVariables']],
    ['a retry strategy', { testRetryStrategy: { type: 'FIXED', maxRetries: 2 } }, ['testRetryStrategy']],
    ['both', { environmentVariables: [{ key: 'A', value: 'b' }], testRetryStrategy: { type: 'FIXED' } }, ['environmentVariables', 'testRetryStrategy']],
  ])('refuses %s rather than run without them', (_what, req, unsupported) => {
    expect(triggeredSessionPlan(req)).toEqual({ ok: false, unsupported });
  });

  it('accepts what the CLI sends when nothing is asked for: no variables, no retries', () => {
    expect(triggeredSessionPlan({ environmentVariables: [], testRetryStrategy: null })).toMatchObject({ ok: true });
  });
});
