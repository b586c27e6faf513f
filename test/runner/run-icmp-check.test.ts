import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIcmpExecutor, runIcmpCheck } from '../../src/runner/executors/run-icmp-check.js';
import { runContext, runnableCheck } from '../support/net-probe-fixtures.js';

const pingInstalled = spawnSync('ping', ['-V']).error === undefined;
const ipv6Ping = pingInstalled && spawnSync('ping', ['-6', '-c', '1', '-n', '-W', '1', '::1']).status === 0;
const NO_PING = 'the ping program is not installed here: apt-get install -y iputils-ping (.ci/run installs it)';

const icmp = (request: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  runnableCheck('ICMP', { request: { hostname: '127.0.0.1', pingCount: 3, ...request }, ...extra });

describe('ICMP check executor with the system ping', () => {
  it('pings 127.0.0.1 and passes latency and JSON assertions', async (ctx) => {
    if (!pingInstalled) return ctx.skip(NO_PING);
    const check = icmp({
      assertions: [
        { source: 'LATENCY', property: 'avg', comparison: 'LESS_THAN', target: '1000' },
        { source: 'LATENCY', property: 'max', comparison: 'NOT_NULL' },
        { source: 'JSON_RESPONSE', property: '$.packetLoss', comparison: 'EQUALS', target: '0' },
        { source: 'JSON_RESPONSE', property: '$.packetsReceived', comparison: 'EQUALS', target: '3' },
      ],
    });
    const result = await runIcmpCheck(check, runContext());
    expect(result.errors).toEqual([]);
    expect(result.assertions.map((a) => a.passed)).toEqual([true, true, true, true]);
    expect(result).toMatchObject({ hasFailures: false, hasErrors: false, networkError: false });
    expect(result.details).toMatchObject({
      hostname: '127.0.0.1', address: '127.0.0.1', ipFamily: 'IPv4', pingCount: 3, packetsSent: 3, packetsReceived: 3, packetLoss: 0,
    });
    const latency = result.details?.latency as Record<string, number>;
    expect(Object.keys(latency).sort()).toEqual(['avg', 'max', 'min', 'stdDev']);
    expect(latency.min).toBeLessThanOrEqual(latency.avg!);
    expect(latency.avg).toBeLessThanOrEqual(latency.max!);
  });

  it('pings ::1 over IPv6', async (ctx) => {
    if (!ipv6Ping) return ctx.skip(pingInstalled ? 'this machine cannot ping its IPv6 loopback ::1' : NO_PING);
    const result = await runIcmpCheck(icmp({ hostname: '::1', ipFamily: 'IPv6', pingCount: 2 }), runContext());
    expect(result.errors).toEqual([]);
    expect(result.details).toMatchObject({ address: '::1', packetsSent: 2, packetsReceived: 2, packetLoss: 0 });
  });

  it('stops ping at the time limit and keeps the statistics of the pings sent', async (ctx) => {
    if (!pingInstalled) return ctx.skip(NO_PING);
    const result = await runIcmpCheck(icmp({ pingCount: 50 }), runContext({ timeoutMs: 1500 }));
    expect(result.errors.map((e) => e.code)).toEqual(['ETIMEDOUT']);
    expect(result).toMatchObject({ hasFailures: true, networkError: true });
    const sent = result.details?.packetsSent as number;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(50);
  });

  it('stops ping when the run is cancelled', async (ctx) => {
    if (!pingInstalled) return ctx.skip(NO_PING);
    const controller = new AbortController();
    const pending = runIcmpCheck(icmp({ pingCount: 50 }), runContext({ signal: controller.signal, timeoutMs: 30_000 }));
    controller.abort();
    const result = await pending;
    expect(result.errors.map((e) => e.code)).toEqual(['CANCELLED']);
    expect(result.networkError).toBe(false);
  });
});

describe('ICMP check executor with recorded ping output', () => {
  let dir: string;

  /** A stand-in for ping that records its arguments and replays what iputils printed. */
  async function recordedPing(name: string, stdout: string, stderr: string, exitCode: number): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(`${file}.out`, stdout);
    await writeFile(`${file}.err`, stderr);
    await writeFile(file, `#!/bin/sh\nprintf '%s\\n' "$@" > "${file}.args"\ncat "${file}.out"\ncat "${file}.err" >&2\nexit ${exitCode}\n`);
    await chmod(file, 0o755);
    return file;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lookout-ping-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs ping with the count, numeric output, interval, wait, family and the host after --', async () => {
    const ping = await recordedPing('args', '', 'ping: example.test: Name or service not known\n', 2);
    await createIcmpExecutor({ pingCommand: ping })(icmp({ hostname: 'example.test', pingCount: 7, ipFamily: 'IPv6' }, { maxResponseTime: 2500 }), runContext());
    expect((await readFile(`${ping}.args`, 'utf8')).trim().split('\n')).toEqual(['-c', '7', '-n', '-i', '0.2', '-W', '3', '-6', '--', 'example.test']);
  });

  it('fails with HOST_UNREACHABLE as a network error when no ping is answered', async () => {
    const ping = await recordedPing('loss', [
      'PING 192.0.2.1 (192.0.2.1) 56(84) bytes of data.',
      'From 192.0.2.254 icmp_seq=1 Destination Host Unreachable',
      '',
      '--- 192.0.2.1 ping statistics ---',
      '3 packets transmitted, 0 received, +1 errors, 100% packet loss, time 2040ms',
      '',
    ].join('\n'), '', 1);
    const check = icmp({ hostname: '192.0.2.1', assertions: [{ source: 'LATENCY', property: 'avg', comparison: 'LESS_THAN', target: '100' }] });
    const result = await createIcmpExecutor({ pingCommand: ping })(check, runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: true, overMaxResponseTime: false, isDegraded: false });
    expect(result.errors).toEqual([{ code: 'HOST_UNREACHABLE', message: expect.stringContaining('Destination Host Unreachable') }]);
    expect(result.assertions[0]).toMatchObject({ passed: false, actual: null });
    expect(result.details).toMatchObject({ packetsSent: 3, packetsReceived: 0, packetLoss: 100, latency: null, address: '192.0.2.1' });
  });

  it('passes a partial loss and judges degradation on the average round trip', async () => {
    const ping = await recordedPing('partial', [
      'PING 192.0.2.7 (192.0.2.7) 56(84) bytes of data.',
      '64 bytes from 192.0.2.7: icmp_seq=1 ttl=57 time=612 ms',
      '64 bytes from 192.0.2.7: icmp_seq=3 ttl=57 time=598 ms',
      '',
      '--- 192.0.2.7 ping statistics ---',
      '3 packets transmitted, 2 received, 33.3333% packet loss, time 2003ms',
      'rtt min/avg/max/mdev = 598.000/605.000/612.000/7.000 ms',
      '',
    ].join('\n'), '', 1);
    const result = await createIcmpExecutor({ pingCommand: ping })(icmp({ hostname: '192.0.2.7' }), runContext());
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ hasFailures: false, isDegraded: true, overMaxResponseTime: false, responseTime: 605 });
    expect(result.details).toMatchObject({ packetLoss: 33.3333, latency: { min: 598, avg: 605, max: 612, stdDev: 7 } });
  });

  it('fails over the max response time on the average round trip', async () => {
    const ping = await recordedPing('slow', [
      'PING 192.0.2.8 (192.0.2.8) 56(84) bytes of data.',
      '',
      '--- 192.0.2.8 ping statistics ---',
      '1 packets transmitted, 1 received, 0% packet loss, time 0ms',
      'rtt min/avg/max/mdev = 1500.100/1500.100/1500.100/0.000 ms',
    ].join('\n'), '', 0);
    const result = await createIcmpExecutor({ pingCommand: ping })(icmp({ hostname: '192.0.2.8' }), runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: false, overMaxResponseTime: true, isDegraded: false });
  });

  it('reports an unknown host with ENOTFOUND as a network error', async () => {
    const ping = await recordedPing('unknown', '', 'ping: nowhere.example.test: Name or service not known\n', 2);
    const result = await createIcmpExecutor({ pingCommand: ping })(icmp({ hostname: 'nowhere.example.test' }), runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: true });
    expect(result.errors).toEqual([{ code: 'ENOTFOUND', message: 'ping: nowhere.example.test: Name or service not known' }]);
  });

  it('errors with PING_NOT_INSTALLED instead of passing when there is no ping program', async () => {
    const result = await createIcmpExecutor({ pingCommand: path.join(dir, 'no-such-ping') })(icmp({}), runContext());
    expect(result).toMatchObject({ hasFailures: true, hasErrors: true, networkError: false });
    expect(result.errors).toEqual([{ code: 'PING_NOT_INSTALLED', message: expect.stringContaining('install iputils-ping') }]);
  });

  it.each([
    ['a host name that ping would read as an option', '-f'],
    ['a host name with spaces', 'example.test -c 1000'],
    ['an empty host name', ''],
  ])('returns INVALID_REQUEST without running ping for %s', async (_label, hostname) => {
    const ping = await recordedPing(`never-${hostname.length}`, '', '', 0);
    const result = await createIcmpExecutor({ pingCommand: ping })(icmp({ hostname }), runContext());
    expect(result.errors.map((e) => e.code)).toEqual(['INVALID_REQUEST']);
    await expect(readFile(`${ping}.args`, 'utf8')).rejects.toThrow();
  });
});
