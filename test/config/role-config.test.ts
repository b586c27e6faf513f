import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('the process role setting', () => {
  it.each([
    ['nothing set', {}, 'all', true],
    ['LOOKOUT_RUNNER=off', { LOOKOUT_RUNNER: 'off' }, 'api', false],
    ['LOOKOUT_ROLE=api', { LOOKOUT_ROLE: 'api' }, 'api', false],
    ['LOOKOUT_ROLE=all with LOOKOUT_RUNNER=on', { LOOKOUT_ROLE: 'all', LOOKOUT_RUNNER: 'on' }, 'all', true],
    ['LOOKOUT_ROLE=Runner with a database URL', { LOOKOUT_ROLE: 'Runner', DATABASE_URL: 'postgres://db.example.test/lookout' }, 'runner', true],
  ])('reads %s', (_what, env, role, runnerEnabled) => {
    expect(loadConfig(env)).toMatchObject({ role, runnerEnabled });
  });

  it.each([
    ['an unknown role', { LOOKOUT_ROLE: 'worker' }, 'LOOKOUT_ROLE must be one of all, api, runner'],
    ['a runner role on the embedded database', { LOOKOUT_ROLE: 'runner' }, 'LOOKOUT_ROLE=runner needs DATABASE_URL'],
    ['a role the runner switch contradicts', { LOOKOUT_ROLE: 'runner', LOOKOUT_RUNNER: 'off', DATABASE_URL: 'postgres://db.example.test/l' }, 'contradicts LOOKOUT_RUNNER=off'],
    ['an API role with the runner switched on', { LOOKOUT_ROLE: 'api', LOOKOUT_RUNNER: 'on' }, 'contradicts LOOKOUT_RUNNER=on'],
  ])('refuses %s, naming the setting', (_what, env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
