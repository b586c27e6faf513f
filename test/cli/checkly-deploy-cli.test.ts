import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The real `checkly deploy`, `deploy --preview` and `destroy` against Lookout, on a small project
 * written to a temporary directory; what they did is checked through REST. One backend (PGlite):
 * the backends are covered by projects-deploy.test.ts.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CLI_DIR = path.join(REPO, 'node_modules/checkly');
const CLI_BIN = path.join(CLI_DIR, (JSON.parse(readFileSync(path.join(CLI_DIR, 'package.json'), 'utf8')) as { bin: { checkly: string } }).bin.checkly);

const CONFIG = `import { defineConfig } from 'checkly'
export default defineConfig({
  projectName: 'Shop monitoring',
  logicalId: 'shop-monitoring',
  repoUrl: 'https://git.example.test/shop',
  checks: { checkMatch: '**/*.check.mjs', frequency: 10, locations: ['us-east-1'] },
  cli: { runLocation: 'us-east-1' },
})
`;

/** Status page slugs and dashboard URLs are unique across accounts (and test files). */
const PAGE_SLUG = `shop-cli-${process.pid}`;

/** The project's checks; `withDatabase: false` is the project after a removal. */
const checksFile = ({ apiName, withDatabase }: { apiName: string; withDatabase: boolean }) => `
import { ApiCheck, CheckGroupV2, Dashboard, EmailAlertChannel, MaintenanceWindow, PrivateLocation, StatusPage, StatusPageService, TcpMonitor } from 'checkly/constructs'
const rack = new PrivateLocation('basement-rack', { name: 'Basement rack', slugName: 'basement-rack' })
const email = new EmailAlertChannel('oncall-email', { address: 'oncall@example.test' })
const group = new CheckGroupV2('shop-group', { name: 'Shop', locations: ['eu-west-1'] })
new ApiCheck('homepage-api', { name: '${apiName}', group, alertChannels: [email], request: { url: 'https://shop.example.test/', method: 'GET' } })
const checkout = new StatusPageService('checkout-service', { name: 'Checkout' })
new StatusPage('shop-status', { name: 'Shop status', url: '${PAGE_SLUG}', cards: [{ name: 'Shop', services: [checkout] }] })
new Dashboard('shop-dashboard', { customUrl: '${PAGE_SLUG}', header: 'Shop', tags: ['shop'] })
new MaintenanceWindow('release-window', { name: 'Release', tags: ['shop'], startsAt: new Date('2099-01-01T10:00:00Z'), endsAt: new Date('2099-01-01T11:00:00Z'), repeatUnit: 'WEEK', repeatInterval: 1 })
${withDatabase ? "new TcpMonitor('database-port', { name: 'Database port', privateLocations: [rack, 'office'], request: { hostname: 'db.example.test', port: 5432 } })" : ''}
`;

interface CliResult { code: number | null; stdout: string; stderr: string }

describe('checkly deploy, deploy --preview and destroy against Lookout', () => {
  let server: TestServer;
  let home: string;
  let project: string;

  beforeAll(async () => {
    server = await startTestServer();
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-deploy-home-'));
    project = mkdtempSync(path.join(os.tmpdir(), 'lookout-deploy-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop-monitoring', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(project, 'checkly.config.mjs'), CONFIG);
    writeFileSync(path.join(project, 'shop.check.mjs'), checksFile({ apiName: 'Homepage API', withDatabase: true }));
    // The project imports `checkly/constructs` as a real project would, from the installed package.
    symlinkSync(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    // A private location the project names by slug: the CLI looks it up and lends it to the deploy by id.
    expect((await server.a.request('POST', '/v1/private-locations', { name: 'Office', slugName: 'office' })).status).toBe(201);
  });

  afterAll(async () => {
    await server?.close();
    for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function cli(args: string[]): Promise<CliResult> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      CHECKLY_ENV: 'local',
      CHECKLY_API_URL: server.url,
      CHECKLY_API_KEY: server.a.apiKey,
      CHECKLY_ACCOUNT_ID: server.a.accountId,
      CHECKLY_SKIP_NEW_VERSION_CHECK: 'true',
      CHECKLY_NO_DOTENV: '1',
      HOME: home,
      XDG_CONFIG_HOME: home,
      NO_COLOR: '1',
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI_BIN, ...args], { cwd: project, env, timeout: 90_000, maxBuffer: 10 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) });
      });
    });
  }

  const checks = async () => ((await server.a.request('GET', '/v1/checks')).body as { id: string; name: string; groupId: number | null }[])
    .map(({ id, name, groupId }) => ({ id, name, groupId }))
    .sort((a, b) => a.name.localeCompare(b.name));

  it('previews, deploys, redeploys a change and a removal, and destroys', { timeout: 240_000 }, async () => {
    const preview = await cli(['deploy', '--preview']);
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/Create:\n(\s+\w+: [\w-]+\n)+/);
    for (const line of ['EmailAlertChannel: oncall-email', 'CheckGroupV2: shop-group', 'ApiCheck: homepage-api', 'TcpMonitor: database-port']) {
      expect(preview.stdout).toContain(line);
    }
    expect(await checks()).toEqual([]);

    const deployed = await cli(['deploy', '--force']);
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    expect(deployed.stdout).toContain('Successfully deployed project "Shop monitoring" to account "Default account".');
    const first = await checks();
    expect(first.map((c) => c.name)).toEqual(['Database port', 'Homepage API']);
    const locations = async () => ((await server.a.request('GET', '/v1/private-locations')).body as { slugName: string }[]).map((l) => l.slugName).sort();
    expect(await locations()).toEqual(['basement-rack', 'office']);
    expect((await server.a.request('GET', `/v1/checks/${first[0]!.id}`)).body.privateLocations).toEqual(['basement-rack', 'office']);
    const [groupView] = (await server.a.request('GET', '/v1/check-groups')).body;
    expect(groupView.name).toBe('Shop');
    expect(first[1]!.groupId).toBe(groupView.id);
    expect((await server.a.request('GET', '/next/projects')).body).toMatchObject([{ logicalId: 'shop-monitoring', name: 'Shop monitoring' }]);
    const windows = async () => (await server.a.request('GET', '/v1/maintenance-windows')).body as { id: number; name: string; repeatUnit: string | null }[];
    expect(await windows()).toMatchObject([{ name: 'Release', repeatUnit: 'WEEK' }]);
    const dashboards = async () => (await server.a.request('GET', '/v1/dashboards')).body as Record<string, any>[];
    expect(await dashboards()).toMatchObject([{ customUrl: PAGE_SLUG, header: 'Shop', tags: ['shop'] }]);
    const pages = async () => (await server.a.request('GET', '/v1/status-pages')).body.entries as Record<string, any>[];
    expect(await pages()).toMatchObject([{ name: 'Shop status', url: PAGE_SLUG, cards: [{ name: 'Shop', services: [{ name: 'Checkout' }] }] }]);

    writeFileSync(path.join(project, 'shop.check.mjs'), checksFile({ apiName: 'Homepage API v2', withDatabase: false }));
    const changes = await cli(['deploy', '--preview']);
    expect(changes.stdout).toMatch(/Delete:\n\s+Check: database-port/);
    const redeployed = await cli(['deploy', '--force']);
    expect(redeployed.code, redeployed.stdout + redeployed.stderr).toBe(0);
    expect(await checks()).toEqual([{ id: first[1]!.id, name: 'Homepage API v2', groupId: groupView.id }]);

    const destroyed = await cli(['destroy', '--force']);
    expect(destroyed.code, destroyed.stdout + destroyed.stderr).toBe(0);
    expect(destroyed.stdout).toContain('All resources associated with project "Shop monitoring" have been successfully deleted.');
    expect(await checks()).toEqual([]);
    expect((await server.a.request('GET', '/v1/check-groups')).body).toEqual([]);
    expect((await server.a.request('GET', '/v1/alert-channels')).body).toEqual([]);
    expect(await windows()).toEqual([]);
    expect(await pages()).toEqual([]);
    expect(await dashboards()).toEqual([]);
    expect(await locations()).toEqual(['office']);
    expect((await server.a.request('GET', '/v1/status-pages/services')).body.entries).toEqual([]);
    expect((await server.a.request('GET', '/next/projects')).body).toEqual([]);
  });
});
