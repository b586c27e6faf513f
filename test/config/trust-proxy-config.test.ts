import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('the trusted proxy setting', () => {
  it.each([
    ['nothing set', {}, false],
    ['false', { LOOKOUT_TRUST_PROXY: 'false' }, false],
    ['true', { LOOKOUT_TRUST_PROXY: 'true' }, true],
    ['a hop count', { LOOKOUT_TRUST_PROXY: '2' }, 2],
    ['addresses, CIDRs and range names', { LOOKOUT_TRUST_PROXY: '10.0.0.1, 192.168.0.0/16 fd00::/8,loopback' }, ['10.0.0.1', '192.168.0.0/16', 'fd00::/8', 'loopback']],
  ])('reads %s', (_what, env, trustProxy) => {
    expect(loadConfig(env).trustProxy).toEqual(trustProxy);
  });

  it.each([
    ['a host name', 'proxy.example.com'],
    ['a CIDR with too many bits', '10.0.0.0/33'],
    ['a negative count', '-1'],
  ])('refuses %s, naming the setting', (_what, value) => {
    expect(() => loadConfig({ LOOKOUT_TRUST_PROXY: value })).toThrow('LOOKOUT_TRUST_PROXY must be');
  });
});
