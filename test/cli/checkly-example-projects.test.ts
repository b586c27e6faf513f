import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExampleProject, type HostRewrite } from '../support/copy-example-project.js';
import { startExampleProjectSites, type ExampleProjectSites } from '../support/example-project-sites.js';
import { startGrpcHealthTarget, type GrpcHealthTarget } from '../support/grpc-health-target.js';
import { runChecklyCli, type CliRun } from '../support/mqtt-cli.js';
import { createTestCa } from '../support/mtls-target.js';
import { pricingAgentScript } from '../support/pricing-agent-script.js';
import { startScriptedModel, type ScriptedModel } from '../support/scripted-model.js';
import { issueServerCertificate } from '../support/server-certificate.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { startTcpEchoTarget, type TcpEchoTarget } from '../support/tcp-echo-target.js';
import { startTls13Target, type Tls13Target } from '../support/tls13-target.js';

/**
 * Issue 26's "done when": the Checkly CLI's own published example projects
 * (test/fixtures/checkly-examples, unmodified) run unchanged against Lookout with the real `checkly`
 * CLI — `deploy --preview`, `deploy`, an unfiltered `checkly test`, `trigger`, a redeploy and
 * `destroy` — with only the hosts they monitor rewritten to local stand-ins: the web shop, SpaceX
 * and pricing pages over HTTP, a TLS 1.3 server and a TLS gRPC health server with certificates of a
 * test CA the spawned Lookout trusts (NODE_EXTRA_CA_CERTS), a TCP echo port for the TCP and
 * traceroute monitors, loopback for ICMP, and a scripted model endpoint for the agentic check.
 * Slow by nature (every check type, Chromium, a Playwright suite): one spawned server per project.
 */

/** Where the stand-ins listen; what the rewrites point the projects at. */
interface Hosts {
  sites: ExampleProjectSites;
  tls: Tls13Target;
  grpc: GrpcHealthTarget;
  tcp: TcpEchoTarget;
}

interface ExampleProject {
  folder: string;
  projectName: string;
  rewrites(h: Hosts): HostRewrite[];
  /** Name → checkType of the checks a deploy creates. */
  checks: Record<string, string>;
  /** Logical ids of other constructs the preview lists. */
  constructs: string[];
  groups: string[];
  alertChannels: number;
}

const shop = (h: Hosts) => h.sites.url;

const PROJECTS: ExampleProject[] = [
  {
    folder: 'advanced-project',
    projectName: 'Advanced Example Project',
    rewrites: (h) => [
      { file: 'checkly.config.ts', from: "baseURL: 'https://www.danube-web.shop'", to: `baseURL: '${shop(h)}'` },
      { file: 'playwright.config.ts', from: "baseURL: 'https://www.danube-web.shop'", to: `baseURL: '${shop(h)}'` },
      { file: 'src/__checks__/synthetics/01-api.check.ts', from: 'https://danube-web.shop/api/books', to: `${shop(h)}/api/books` },
      { file: 'src/__checks__/synthetics/05-multi-step-api.spec.ts', from: 'https://api.spacexdata.com/v3', to: `${h.sites.url}/v3` },
      { file: 'src/__checks__/uptime/grpc.check.ts', from: "url: 'grpc.example.com'", to: "url: 'localhost'" },
      { file: 'src/__checks__/uptime/grpc.check.ts', from: 'port: 50051', to: `port: ${h.grpc.port}` },
      { file: 'src/__checks__/uptime/icmp.check.ts', from: "hostname: '1.1.1.1'", to: "hostname: '127.0.0.1'" },
      { file: 'src/__checks__/uptime/ssl.check.ts', from: "hostname: 'example.com'", to: "hostname: 'localhost'" },
      { file: 'src/__checks__/uptime/ssl.check.ts', from: 'port: 443', to: `port: ${h.tls.port}` },
      // ipFamily stays IPv6: the echo port listens on ::1 too.
      { file: 'src/__checks__/uptime/tcp.check.ts', from: "hostname: 'tcpbin.com'", to: "hostname: '::1'" },
      { file: 'src/__checks__/uptime/tcp.check.ts', from: 'port: 4242', to: `port: ${h.tcp.port}` },
      { file: 'src/__checks__/uptime/traceroute.check.ts', from: "url: 'example.com'", to: "url: '127.0.0.1'" },
      { file: 'src/__checks__/uptime/traceroute.check.ts', from: 'port: 443', to: `port: ${h.tcp.port}` },
      { file: 'src/__checks__/uptime/url.check.ts', from: "'https://www.danube-web.shop/'", to: `'${shop(h)}/'` },
      { file: 'src/__checks__/uptime/url.check.ts', from: "'https://danube-web.shop/", to: `'${shop(h)}/`, count: 2 },
    ],
    checks: {
      'Books API': 'API',
      'Browse and search': 'BROWSER',
      'Add to cart flow': 'BROWSER',
      'Multistep API check': 'MULTI_STEP',
      'gRPC API Health Monitor': 'GRPC',
      'Send weekly newsletter job': 'HEARTBEAT',
      'Cloudflare DNS ICMP Monitor': 'ICMP',
      'example.com SSL Certificate': 'SSL',
      'TCPbin Monitor': 'TCP',
      'example.com Traceroute': 'TRACEROUTE',
      'Homepage URL Monitor': 'URL',
      'books 2 URL monitor': 'URL',
      'category URL monitor': 'URL',
      'Playwright Check Suite TS': 'PLAYWRIGHT',
    },
    constructs: ['check-group-synthetics', 'check-group-uptime', 'email-channel-1', 'slack-channel-1', 'webhook-channel-1', 'playwright-check-suite', 'grpc-api-health', 'example-com-ssl', 'example-com-traceroute'],
    groups: ['Synthetic Monitors Group', 'Uptime Monitors Group'],
    alertChannels: 3,
  },
  {
    folder: 'boilerplate-project',
    projectName: 'Boilerplate Project',
    rewrites: (h) => [
      { file: 'checkly.config.ts', from: "baseURL: 'https://www.danube-web.shop'", to: `baseURL: '${shop(h)}'` },
      { file: 'playwright.config.ts', from: "baseURL: 'https://www.danube-web.shop'", to: `baseURL: '${shop(h)}'` },
      { file: '__checks__/api.check.ts', from: 'https://danube-web.shop/api/books', to: `${shop(h)}/api/books` },
      { file: '__checks__/url.check.ts', from: "'https://www.danube-web.shop/'", to: `'${shop(h)}/'` },
      { file: '__checks__/agentic.check.ts', from: 'https://www.checklyhq.com/pricing', to: `${h.sites.url}/pricing` },
    ],
    checks: {
      'Checkly pricing page': 'AGENTIC',
      'Books API': 'API',
      'Send weekly newsletter job': 'HEARTBEAT',
      'homepage.spec.ts': 'BROWSER',
      'Books URL': 'URL',
      'Playwright Check Suite Simple TS': 'PLAYWRIGHT',
    },
    constructs: ['checkly-pricing-page', 'books-api-check-1', 'heartbeat-1', 'books-url-check', 'playwright-check-suite'],
    groups: [],
    alertChannels: 0,
  },
];

const ACCOUNT = randomUUID();
const KEY = `lookout-example-projects-${randomUUID()}`;
const CLI_TIMEOUT_MS = 540_000;
const STEP_TIMEOUT_MS = 600_000;

/** The CLI's whole transcript, for a failing expectation's message. */
const transcript = (r: CliRun) => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

describe.sequential('the Checkly CLI example projects run unchanged against Lookout', () => {
  let hosts: Hosts;
  let model: ScriptedModel;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'lookout-examples-'));
    const ca = await createTestCa('Example projects test CA');
    const pem = await issueServerCertificate(ca);
    writeFileSync(path.join(work, 'ca.pem'), ca.cert);
    const [sites, tls, grpc, tcp] = await Promise.all([startExampleProjectSites(), startTls13Target(pem), startGrpcHealthTarget(pem), startTcpEchoTarget()]);
    hosts = { sites, tls, grpc, tcp };
    model = await startScriptedModel(pricingAgentScript);
  });

  afterAll(async () => {
    await Promise.all([hosts?.sites.close(), hosts?.tls.close(), hosts?.grpc.close(), hosts?.tcp.close(), model?.close()]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe.each(PROJECTS)('$folder', (project) => {
    let lookout: SpawnedServer;
    let dir: string;
    let home: string;
    let deployedIds: Record<string, string> = {};

    beforeAll(async () => {
      dir = copyExampleProject(project.folder, project.rewrites(hosts));
      home = mkdtempSync(path.join(os.tmpdir(), 'lookout-examples-home-'));
      lookout = await spawnServer({
        LOOKOUT_DATA_DIR: path.join(work, `${project.folder}-data`),
        LOOKOUT_ACCOUNT_ID: ACCOUNT,
        LOOKOUT_API_KEY: KEY,
        NODE_EXTRA_CA_CERTS: path.join(work, 'ca.pem'),
        LOOKOUT_AGENTIC_MODEL_URL: model.url,
        LOOKOUT_AGENTIC_MODEL_KEY: 'scripted-model-key',
        LOOKOUT_AGENTIC_MODEL: 'scripted-model',
      });
    });

    afterAll(async () => {
      if (lookout) {
        lookout.child.kill('SIGTERM');
        await lookout.exited;
      }
      for (const d of [dir, home]) if (d) rmSync(d, { recursive: true, force: true });
    });

    const cli = (args: string[]) => runChecklyCli(args, { server: lookout, client: { apiKey: KEY, accountId: ACCOUNT }, home, cwd: dir, timeoutMs: CLI_TIMEOUT_MS });

    async function rest(method: string, route: string): Promise<{ status: number; body: any }> {
      const res = await fetch(lookout.url + route, { method, headers: { authorization: `Bearer ${KEY}`, 'x-checkly-account': ACCOUNT } });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }

    const deployedChecks = async (): Promise<Record<string, { id: string; checkType: string }>> =>
      Object.fromEntries(((await rest('GET', '/v1/checks?limit=100')).body as Record<string, any>[])
        .map((c) => [c.name, { id: c.id as string, checkType: c.checkType as string }]));

    /** The session `run` of the CLI started under `name`, once finished, with what each failed result says. */
    async function finishedSession(name: string, run: CliRun): Promise<{ session: Record<string, any>; failures: string }> {
      const listed = (await rest('GET', '/v1/test-sessions?limit=100')).body.entries as Record<string, any>[];
      const id = listed.find((s) => s.name === name)?.id;
      expect(id, `no test session named ${name}\n${transcript(run)}`).toBeDefined();
      const session = (await rest('GET', `/v1/test-sessions/${id}/completion?maxWaitSeconds=30`)).body as Record<string, any>;
      const failed = (session.results as Record<string, any>[]).filter((r) => r.status !== 'PASSED');
      const failures = await Promise.all(failed.map(async (r) => {
        const result = (await rest('GET', `/v1/test-sessions/${id}/results/${r.resultIds?.[0]}`)).body;
        return `${r.name} (${r.checkType}): ${r.status} ${JSON.stringify(result).slice(0, 1500)}`;
      }));
      return { session, failures: failures.join('\n') };
    }

    const runnable = () => Object.entries(project.checks).filter(([, type]) => type !== 'HEARTBEAT').map(([name]) => name);

    it('deploy --preview lists every construct and creates nothing', { timeout: STEP_TIMEOUT_MS }, async () => {
      const r = await cli(['deploy', '--preview']);
      expect(r.code, transcript(r)).toBe(0);
      expect(r.stdout, transcript(r)).toMatch(/Create:\n/);
      for (const logicalId of project.constructs) expect(r.stdout, transcript(r)).toContain(logicalId);
      expect(await deployedChecks()).toEqual({});
    });

    it('deploy creates every check with its type, the groups and the alert channels', { timeout: STEP_TIMEOUT_MS }, async () => {
      const r = await cli(['deploy', '--force']);
      expect(r.code, transcript(r)).toBe(0);
      expect(r.stdout).toContain(`Successfully deployed project "${project.projectName}"`);
      const checks = await deployedChecks();
      expect(Object.fromEntries(Object.entries(checks).map(([name, c]) => [name, c.checkType]))).toEqual(project.checks);
      deployedIds = Object.fromEntries(Object.entries(checks).map(([name, c]) => [name, c.id]));
      expect(((await rest('GET', '/v1/check-groups')).body as Record<string, any>[]).map((g) => g.name).sort()).toEqual(project.groups);
      expect((await rest('GET', '/v1/alert-channels')).body).toHaveLength(project.alertChannels);
    });

    it('an unfiltered checkly test runs every check of the project and all of them pass', { timeout: STEP_TIMEOUT_MS }, async () => {
      const name = `${project.folder}-test`;
      const r = await cli(['test', '--test-session-name', name]);
      const { session, failures } = await finishedSession(name, r);
      expect(r.code, `${transcript(r)}\n--- failed results\n${failures}`).toBe(0);
      expect(r.stdout).toContain(`${runnable().length} passed, ${runnable().length} total`);
      expect(session.status, failures).toBe('PASSED');
      expect((session.results as Record<string, any>[]).map((e) => e.name).sort()).toEqual(runnable().sort());
    });

    it('trigger runs the deployed checks and all of them pass', { timeout: STEP_TIMEOUT_MS }, async () => {
      const name = `${project.folder}-trigger`;
      const r = await cli(['trigger', '--test-session-name', name]);
      const { session, failures } = await finishedSession(name, r);
      expect(r.code, `${transcript(r)}\n--- failed results\n${failures}`).toBe(0);
      expect(r.stdout).toContain(`${runnable().length} passed, ${runnable().length} total`);
      expect(session.status, failures).toBe('PASSED');
      expect((session.checkIds as string[]).sort()).toEqual(runnable().map((n) => deployedIds[n]).sort());
    });

    it('a redeploy of the unchanged project keeps every check', { timeout: STEP_TIMEOUT_MS }, async () => {
      const r = await cli(['deploy', '--force']);
      expect(r.code, transcript(r)).toBe(0);
      const checks = await deployedChecks();
      expect(Object.fromEntries(Object.entries(checks).map(([name, c]) => [name, c.id]))).toEqual(deployedIds);
    });

    it('destroy removes every resource of the project', { timeout: STEP_TIMEOUT_MS }, async () => {
      const r = await cli(['destroy', '--force']);
      expect(r.code, transcript(r)).toBe(0);
      expect(r.stdout).toContain(`All resources associated with project "${project.projectName}" have been successfully deleted.`);
      expect(await deployedChecks()).toEqual({});
      expect((await rest('GET', '/v1/check-groups')).body).toEqual([]);
      expect((await rest('GET', '/v1/alert-channels')).body).toEqual([]);
      expect((await rest('GET', '/next/projects')).body).toEqual([]);
    });
  });
});
