import { describe, expect, it } from 'vitest';
import { withCheckDefaults, mergeCheckUpdate } from '../../src/domain/check-defaults.js';
import { effectiveLocations } from '../../src/domain/effective-locations.js';
import { mergeGroupUpdate, withGroupDefaults } from '../../src/domain/group-defaults.js';
import { idleReason } from '../../src/domain/idle-reason.js';
import { keepActivated } from '../../src/domain/keep-activated.js';
import { list, mergeUpdate, object, value, withDefaults, type Shape } from '../../src/domain/merge-update.js';
import { omitEmpty } from '../support/omit-empty.js';

const SHAPE: Shape = {
  flag: value(true),
  name: value(),
  note: value(null),
  none: value(null, { same: [''] }),
  ref: value(null, { nullClears: true }),
  tags: list(),
  inner: object({ a: value(1), deeper: object({ b: value('x'), c: value(false) }) }),
  maybe: object({ a: value(1) }, null),
  optional: object({ a: value(1) }, 'absent'),
  entries: list({ key: value(), value: value(''), secret: value(false) }, { itemKey: 'key' }),
  plain: list({ key: value(), value: value('') }),
};

const FILLED = {
  flag: true, note: null, none: null, ref: null, tags: [], inner: { a: 1, deeper: { b: 'x', c: false } }, maybe: null, entries: [], plain: [],
};

describe('withDefaults: absent or null takes the default, at every depth', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['an empty body', {}, FILLED],
    ['null for every field', { flag: null, note: null, tags: null, inner: null, maybe: null, optional: null, entries: null }, FILLED],
    ['a partial object', { inner: { deeper: { c: true } } }, { ...FILLED, inner: { a: 1, deeper: { b: 'x', c: true } } }],
    ['an empty object', { inner: {} }, FILLED],
    ['null inside an object', { inner: { a: null, deeper: null } }, FILLED],
    ['an object whose default is null, given in part', { maybe: {} }, { ...FILLED, maybe: { a: 1 } }],
    ['an object given only when sent', { optional: { } }, { ...FILLED, optional: { a: 1 } }],
    ['list items given in part', { plain: [{ key: 'k' }], entries: [{ key: 'e', value: null }] },
      { ...FILLED, plain: [{ key: 'k', value: '' }], entries: [{ key: 'e', value: '', secret: false }] }],
    ['an empty list', { tags: [] }, FILLED],
    ['values as sent', { flag: false, name: 'n', tags: ['a'] }, { ...FILLED, flag: false, name: 'n', tags: ['a'] }],
    ['a key the shape does not name', { extra: 1 }, { ...FILLED, extra: 1 }],
    ['a value that means the default ("" for none)', { none: '' }, FILLED],
    ['a value that does not', { none: 'x' }, { ...FILLED, none: 'x' }],
  ])('fills %s', (_label, input, expected) => {
    expect(withDefaults(input, SHAPE)).toEqual(expected);
  });
});

describe('mergeUpdate: null or absent leaves as stored, lists replace, objects merge key by key', () => {
  const stored = {
    ...FILLED, flag: false, name: 'stored', note: 'kept', ref: 7, tags: ['a', 'b'], inner: { a: 5, deeper: { b: 'y', c: true } },
    maybe: { a: 3 }, entries: [{ key: 'S', value: 'secret', secret: true }, { key: 'P', value: 'plain', secret: false }],
    plain: [{ key: 'h', value: 'v' }],
  };
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['an empty body', {}, stored],
    ['null for every field but ref', { flag: null, name: null, note: null, tags: null, inner: null, maybe: null, entries: null, plain: null }, stored],
    ['null for a field marked nullClears', { ref: null }, { ...stored, ref: null }],
    ['an empty list', { tags: [] }, { ...stored, tags: [] }],
    ['a list', { tags: ['c'] }, { ...stored, tags: ['c'] }],
    ['a partial object', { inner: { deeper: { b: 'z' } } }, { ...stored, inner: { a: 5, deeper: { b: 'z', c: true } } }],
    ['null inside a partial object', { inner: { a: null, deeper: { c: null } } }, stored],
    ['an empty object', { inner: {}, maybe: {} }, stored],
    ['a value of another kind than stored', { maybe: 'FALLBACK' }, { ...stored, maybe: 'FALLBACK' }],
    ['keyed entries sent without values (a secret reads back null)', { entries: [{ key: 'S', value: null, secret: true }, { key: 'P' }] }, stored],
    ['keyed entries in another order, one left out', { entries: [{ key: 'P', value: 'new' }] }, { ...stored, entries: [{ key: 'P', value: 'new', secret: false }] }],
    ['a new keyed entry', { entries: [{ key: 'N', value: 'n' }] }, { ...stored, entries: [{ key: 'N', value: 'n' }] }],
    ['plain list items (replaced whole, not merged)', { plain: [{ key: 'h' }] }, { ...stored, plain: [{ key: 'h' }] }],
  ])('merges %s', (_label, update, expected) => {
    expect(mergeUpdate(stored, update, SHAPE)).toEqual(expected);
  });

  it('fills what a merged partial object still lacks once withDefaults runs after it', () => {
    expect(withDefaults(mergeUpdate({ ...FILLED, maybe: null }, { maybe: {} }, SHAPE), SHAPE).maybe).toEqual({ a: 1 });
  });
});

describe('a read with zero values dropped changes nothing', () => {
  const apiCheck = withCheckDefaults('API', {
    name: 'omit', muted: false, frequency: 5, locations: ['eu-west-1'], groupOrder: 0, description: '',
    alertSettings: { reminders: { amount: 0, interval: 5 }, parallelRunFailureThreshold: { enabled: false, percentage: 10 }, sslCertificates: { enabled: false, alertThreshold: 10 } },
    retryStrategy: { type: 'FIXED', baseBackoffSeconds: 0, sameRegion: false },
    request: { url: 'https://a.test', body: '', headers: [{ key: 'X', value: '' }], basicAuth: { username: 'u', password: '' }, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] },
    environmentVariables: [{ key: 'S', value: 'secret', secret: true }, { key: 'E', value: '' }],
  }, '');
  const readBack = { ...apiCheck, environmentVariables: apiCheck.environmentVariables.map((v: { secret: boolean }) => (v.secret ? { ...v, value: null } : v)) };

  it.each([
    ['dropped zero values', omitEmpty(readBack)],
    ['the read sent back as is', readBack],
  ])('merges %s back into the same API check', (_label, body) => {
    expect(withCheckDefaults('API', mergeCheckUpdate('API', apiCheck, body as Record<string, unknown>), '')).toEqual(apiCheck);
  });

  it('merges a group read with zero values dropped back into the same group', () => {
    const group = withGroupDefaults({ name: 'g', concurrency: 1, apiCheckDefaults: { url: '', headers: [{ key: 'A', value: '' }] }, retryStrategy: 'FALLBACK' });
    expect(withGroupDefaults(mergeGroupUpdate(group, omitEmpty(group) as Record<string, unknown>))).toEqual(group);
  });
});

describe('check update rules', () => {
  const stored = withCheckDefaults('TCP', { name: 't', groupId: 4, locations: ['eu-west-1'], retryStrategy: { type: 'LINEAR' }, request: { hostname: 'h', port: 1 } }, '');
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['locations null (left as stored)', { locations: null }, { locations: ['eu-west-1'] }],
    ['locations [] (emptied)', { locations: [] }, { locations: [] }],
    ['locations absent (left as stored)', {}, { locations: ['eu-west-1'] }],
    ['groupId null (removed from the group)', { groupId: null }, { groupId: null }],
    ['retryStrategy null (no retries)', { retryStrategy: null }, { retryStrategy: null }],
    ['a partial retryStrategy (merged)', { retryStrategy: { maxRetries: 5 } }, { retryStrategy: { type: 'LINEAR', maxRetries: 5, baseBackoffSeconds: 60 } }],
    ['a partial request (merged)', { request: { port: 2 } }, { request: { hostname: 'h', port: 2, ipFamily: 'IPv4' } }],
    ['a partial alertSettings (merged at every depth)', { alertSettings: { reminders: { amount: 2 } } }, { alertSettings: { reminders: { amount: 2, interval: 5 }, escalationType: 'RUN_BASED' } }],
  ])('applies %s', (_label, update, expected) => {
    expect(withCheckDefaults('TCP', mergeCheckUpdate('TCP', stored, update), '')).toMatchObject(expected);
  });
});

describe('subscriptions sent back without activated', () => {
  it.each<[string, { alertChannelId: number; activated?: boolean | null }[], { alertChannelId: number; activated: boolean }[]]>([
    ['keep a deactivated one deactivated', [{ alertChannelId: 1 }], [{ alertChannelId: 1, activated: false }]],
    ['keep it with null', [{ alertChannelId: 1, activated: null }], [{ alertChannelId: 1, activated: false }]],
    ['activate a new one', [{ alertChannelId: 2 }], [{ alertChannelId: 2, activated: true }]],
    ['take what is sent', [{ alertChannelId: 1, activated: true }], [{ alertChannelId: 1, activated: true }]],
  ])('%s', (_label, sent, expected) => {
    expect(keepActivated(sent, [{ alertChannelId: 1, activated: false }])).toEqual(expected);
  });
});

describe('where a check runs, and when it has nowhere to', () => {
  const none = { locations: [], privateLocations: [] };
  it.each<[string, { locations?: string[]; privateLocations?: string[] }, { locations?: string[]; privateLocations?: string[] } | null, { locations: string[]; privateLocations: string[] }]>([
    ['its own, without a group', { locations: ['eu-west-1'] }, null, { locations: ['eu-west-1'], privateLocations: [] }],
    ['its own, when the group names none', { locations: ['eu-west-1'] }, none, { locations: ['eu-west-1'], privateLocations: [] }],
    ['the group\'s, when it names locations', { locations: ['eu-west-1'] }, { locations: ['us-west-2'] }, { locations: ['us-west-2'], privateLocations: [] }],
    ['the group\'s, when it names only private locations', { locations: ['eu-west-1'] }, { privateLocations: ['office'] }, { locations: [], privateLocations: ['office'] }],
    ['nowhere, when neither names any', none, none, { locations: [], privateLocations: [] }],
  ])('runs in %s', (_label, check, group, expected) => {
    expect(effectiveLocations(check, group)).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>, { locations?: string[]; privateLocations?: string[] } | null, string | null]>([
    ['a check with locations', { checkType: 'API', locations: ['eu-west-1'] }, null, null],
    ['a check with private locations only', { checkType: 'API', privateLocations: ['office'] }, null, null],
    ['a check in a group with locations', { checkType: 'API', groupId: 1, locations: [] }, { locations: ['eu-west-1'] }, null],
    ['a check without locations in a group without any', { checkType: 'API', groupId: 1, locations: [], privateLocations: [] }, none, 'NO_LOCATIONS'],
    ['a check without locations and without a group', { checkType: 'TCP', locations: [] }, null, 'NO_LOCATIONS'],
    ['a heartbeat without locations (pings decide, nothing runs)', { checkType: 'HEARTBEAT', groupId: 1, locations: [] }, none, null],
  ])('says whether %s is idle', (_label, check, group, code) => {
    const reason = idleReason(check as { checkType: string }, group);
    expect(reason?.code ?? null).toBe(code);
    if (reason) expect(reason.message).toMatch(/Nowhere to run/);
  });

  it('names the group in the reason of a check in a group', () => {
    expect(idleReason({ checkType: 'API', groupId: 12, locations: [] }, none)?.message).toContain('group 12');
  });
});
