import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumInstalled } from '../support/chromium.js';
import { copyExampleProject } from '../support/copy-example-project.js';
import { startExampleProjectSites, type ExampleProjectSites } from '../support/example-project-sites.js';
import { startGrpcHealthTarget } from '../support/grpc-health-target.js';
import { createTestCa, type Pem, type TestCa } from '../support/mtls-target.js';
import { pricingAgentScript } from '../support/pricing-agent-script.js';
import { startScriptedModel } from '../support/scripted-model.js';
import { issueServerCertificate } from '../support/server-certificate.js';
import { startTcpEchoTarget } from '../support/tcp-echo-target.js';
import { startTls13Target } from '../support/tls13-target.js';

/**
 * The stand-ins checkly-example-projects.test.ts points the CLI's example projects at, checked on
 * their own: when that suite fails, these say whether the stand-in or Lookout is at fault. The
 * projects' own Playwright specs pass against the web shop with @playwright/test and Debian's
 * Chromium, without Lookout.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('stand-ins for the hosts of the Checkly example projects', () => {
  let sites: ExampleProjectSites;
  let ca: TestCa;
  let pem: Pem;

  beforeAll(async () => {
    sites = await startExampleProjectSites();
    ca = await createTestCa();
    pem = await issueServerCertificate(ca);
  });

  afterAll(async () => {
    await sites?.close();
  });

  it.skipIf(!chromiumInstalled)('serve what the advanced project\'s specs expect: its Playwright specs pass against the web shop', { timeout: 180_000 }, async () => {
    const dir = copyExampleProject('advanced-project', [
      { file: 'src/__checks__/synthetics/05-multi-step-api.spec.ts', from: 'https://api.spacexdata.com/v3', to: `${sites.url}/v3` },
    ]);
    try {
      // Not the project's playwright.config.ts (Firefox, which this machine lacks): the same specs with Debian's Chromium.
      writeFileSync(path.join(dir, 'stand-in.config.ts'), `import { defineConfig } from '@playwright/test'
export default defineConfig({
  testDir: '.', testMatch: ['src/__checks__/**/*.spec.ts', 'src/tests/*.ts'], reporter: 'list', workers: 1,
  use: { baseURL: '${sites.url}', launchOptions: { executablePath: '${CHROMIUM}' } },
})
`);
      const run = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile(process.execPath, [path.join(REPO, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'stand-in.config.ts'],
          { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, AUTHOR_NAME: 'Fric Eromm' }, timeout: 170_000 },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }));
      });
      expect(run.code, run.out).toBe(0);
      expect(run.out).toContain('7 passed');
      expect(sites.requested).toEqual(expect.arrayContaining(['/api/books', '/v3/dragons', '/v3/dragons/dragon1', '/category?string=horror', '/cart?add=3']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answer the checks\' own requests: books JSON with its content type, the URL monitors\' pages, three pricing tiers', async () => {
    const books = await fetch(`${sites.url}/api/books`);
    expect(books.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await books.json())[0]).toMatchObject({ id: 1, author: 'Fric Eromm' });
    for (const route of ['/', '/books/2', '/category?string=economics']) expect((await fetch(sites.url + route)).status).toBe(200);
    expect(await (await fetch(`${sites.url}/`)).text()).toContain('<title>Home | Danube WebShop</title>');
    expect((await (await fetch(`${sites.url}/pricing`)).text()).match(/class="plan"/g)).toHaveLength(3);
  });

  it('speak TLS 1.3 with a certificate for localhost that the test CA signed', async () => {
    const target = await startTls13Target(pem);
    try {
      const socket = tls.connect({ host: 'localhost', port: target.port, ca: ca.cert, servername: 'localhost' });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      expect({ protocol: socket.getProtocol(), authorized: socket.authorized }).toEqual({ protocol: 'TLSv1.3', authorized: true });
      socket.destroy();
      // Without the CA the same handshake is refused: the spawned Lookout must be given it.
      const untrusted = tls.connect({ host: 'localhost', port: target.port, servername: 'localhost' });
      await expect(new Promise((resolve, reject) => untrusted.once('secureConnect', resolve).once('error', reject))).rejects.toThrow(/self.signed|unable to (verify|get)/i);
    } finally {
      await target.close();
    }
  });

  it('answer a gRPC health check over TLS with SERVING', async () => {
    const target = await startGrpcHealthTarget(pem);
    const definition = protoLoader.loadSync(path.join(REPO, 'test/support/grpc-health.proto'), { enums: String });
    const Health = (grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } }).grpc.health.v1.Health;
    const client = new Health(`localhost:${target.port}`, grpc.credentials.createSsl(Buffer.from(ca.cert)));
    try {
      const answer = await new Promise((resolve, reject) => (client as unknown as { Check(req: unknown, cb: (e: Error | null, r: unknown) => void): void })
        .Check({ service: '' }, (err, res) => (err ? reject(err) : resolve(res))));
      expect(answer).toEqual({ status: 'SERVING' });
      expect(target.checks()).toBe(1);
    } finally {
      client.close();
      await target.close();
    }
  });

  it('echo TCP data on ::1 as on 127.0.0.1', async () => {
    const target = await startTcpEchoTarget();
    try {
      for (const host of ['::1', '127.0.0.1']) {
        const socket = net.connect({ host, port: target.port });
        socket.write('ping\n');
        const [reply] = await new Promise<Buffer[]>((resolve) => socket.once('data', (d: Buffer) => resolve([d])));
        expect(reply!.toString()).toBe('ping\n');
        socket.destroy();
      }
    } finally {
      await target.close();
    }
  });

  it('answer the agentic prompt with the scripted tool calls, and refuse a tool the request does not offer', async () => {
    const model = await startScriptedModel(pricingAgentScript);
    const tools = ['navigate', 'click', 'type', 'read_page', 'assert', 'finish'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
    const ask = (body: Record<string, unknown>) => fetch(`${model.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    try {
      const prompt = { role: 'user', content: `Navigate to ${sites.url}/pricing and verify that at least three plan tiers are displayed on the page.` };
      const first = await (await ask({ model: 'm', tools, messages: [prompt] })).json();
      expect(first.choices[0].message.tool_calls[0].function).toEqual({ name: 'navigate', arguments: JSON.stringify({ url: `${sites.url}/pricing` }) });
      const assistant = (name: string) => ({ role: 'assistant', content: null, tool_calls: [{ id: name, type: 'function', function: { name, arguments: '{}' } }] });
      const last = await (await ask({ model: 'm', tools, messages: [prompt, assistant('navigate'), assistant('assert')] })).json();
      expect(last.choices[0].message.tool_calls[0].function.name).toBe('finish');
      const refused = await ask({ model: 'm', tools: tools.slice(1), messages: [prompt] });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toContain('"navigate" is not among the offered tools: click, type, read_page, assert, finish');
    } finally {
      await model.close();
    }
  });

  it('are reached only through rewrites that match the published files exactly', () => {
    expect(() => copyExampleProject('boilerplate-project', [{ file: '__checks__/url.check.ts', from: 'https://danube-web.shop/', to: 'x' }]))
      .toThrow('boilerplate-project/__checks__/url.check.ts: expected 1 occurrence(s) of "https://danube-web.shop/", found 0');
    const published = readFileSync(path.join(REPO, 'test/fixtures/checkly-examples/boilerplate-project/__checks__/url.check.ts'), 'utf8');
    expect(published).toContain("url: 'https://www.danube-web.shop/'");
  });
});
