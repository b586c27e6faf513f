import { once } from 'node:events';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTraceroute } from '../../src/runner/traceroute-command.js';
import { runChecklyCli } from '../support/mqtt-cli.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The CLI 8.x monitors `SslMonitor` and `TracerouteMonitor`, written as a Checkly project writes them,
 * deployed by the real `checkly deploy` and run by `checkly test` against loopback targets.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const traceroute = findTraceroute() !== null;

describe.skipIf(!traceroute)('SslMonitor and TracerouteMonitor through the checkly CLI', () => {
  let server: TestServer;
  let home: string;
  let project: string;
  let tlsServer: tls.Server;
  let tcpServer: net.Server;

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec', algorithm: 'sha256', notBeforeDate: new Date(Date.now() - 3_600_000), notAfterDate: new Date(Date.now() + 90 * 86_400_000),
      extensions: [{ name: 'basicConstraints', cA: false }, { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    tlsServer = tls.createServer({ key: pems.private, cert: pems.cert }, (s) => s.end()).listen(0, '127.0.0.1');
    tlsServer.on('tlsClientError', () => undefined);
    tcpServer = net.createServer((s) => s.destroy()).listen(0, '127.0.0.1');
    await Promise.all([once(tlsServer, 'listening'), once(tcpServer, 'listening')]);
    server = await startTestServer();
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-monitors-home-'));
    project = mkdtempSync(path.join(os.tmpdir(), 'lookout-monitors-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'edge-monitoring', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(project, 'checkly.config.mjs'), `import { defineConfig } from 'checkly'
export default defineConfig({
  projectName: 'Edge monitoring',
  logicalId: 'edge-monitoring',
  checks: { checkMatch: '**/*.check.mjs', frequency: 10, locations: ['eu-central-1'] },
  cli: { runLocation: 'eu-central-1' },
})
`);
    writeFileSync(path.join(project, 'edge.check.mjs'), `
import { SslMonitor, SslAssertionBuilder, TracerouteMonitor, TracerouteAssertionBuilder } from 'checkly/constructs'
new SslMonitor('edge-tls', {
  name: 'Edge TLS',
  request: {
    hostname: '127.0.0.1',
    port: ${(tlsServer.address() as AddressInfo).port},
    sslConfig: { serverName: 'localhost', skipChainValidation: true, alertDaysBeforeExpiry: 30 },
    assertions: [
      SslAssertionBuilder.certificate('daysUntilExpiry').greaterThan(60),
      SslAssertionBuilder.certificate('selfSigned').equals(true),
      SslAssertionBuilder.connection('tlsVersion').equals('TLS1.3'),
      SslAssertionBuilder.connection('hostnameVerified').equals(true),
    ],
  },
})
new TracerouteMonitor('edge-path', {
  name: 'Edge path',
  request: {
    url: '127.0.0.1',
    protocol: 'TCP',
    port: ${(tcpServer.address() as AddressInfo).port},
    maxHops: 5,
    ptrLookup: false,
    assertions: [TracerouteAssertionBuilder.hopCount().lessThan(3), TracerouteAssertionBuilder.packetLoss().lessThan(50)],
  },
})
`);
    symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([tlsServer, tcpServer].map((s) => s && new Promise((resolve) => s.close(resolve))));
    for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('deploys both monitors as SSL and TRACEROUTE checks', async () => {
    const r = await runChecklyCli(['deploy', '--force'], { server, client: server.a, home, cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const listed = (await server.a.request('GET', '/v1/checks?limit=100')).body as Record<string, any>[];
    expect(listed.map((c) => [c.name, c.checkType]).sort()).toEqual([['Edge TLS', 'SSL'], ['Edge path', 'TRACEROUTE']]);
    const sslCheck = listed.find((c) => c.checkType === 'SSL')!;
    expect(sslCheck.request).toMatchObject({
      sslConfig: { hostname: '127.0.0.1', serverName: 'localhost', skipChainValidation: true, alertDaysBeforeExpiry: 30 },
      assertions: [{ source: 'CERTIFICATE', property: 'daysUntilExpiry', comparison: 'GREATER_THAN', target: '60' }, {}, {}, {}],
    });
  });

  it('runs both with checkly test and passes them', async () => {
    const r = await runChecklyCli(['test', '--test-session-name', 'edge'], { server, client: server.a, home, cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Edge TLS');
    expect(r.stdout).toContain('Edge path');
    expect(r.stdout).toMatch(/2 passed, 2 total/);
  });
});
