import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/**
 * The real `checkly` CLI (npm package, a devDependency) run against a Lookout server: the
 * compatibility promise of conventions.md, checked end to end. The CLI only reads here, so one
 * backend (PGlite) is enough; the backends are covered by the route suites.
 */

// The package's `exports` hide package.json from require.resolve: read it where npm installs it.
const CLI_DIR = fileURLToPath(new URL('../../node_modules/checkly/', import.meta.url));
const CLI_BIN = path.join(CLI_DIR, (JSON.parse(readFileSync(path.join(CLI_DIR, 'package.json'), 'utf8')) as { bin: { checkly: string } }).bin.checkly);

/** The seeded checks; `freq` is how the CLI's FREQ column shows each one's frequency. */
const CHECKS = [
  {
    segment: 'api', type: 'API', freq: '5m',
    body: { name: 'Homepage API', description: 'Shop front page', tags: ['prod', 'web'], frequency: 5, request: { url: 'https://shop.example.test/' } },
  },
  {
    segment: 'api', type: 'API', freq: '1m',
    body: { name: 'Search API', tags: ['prod', 'search'], frequency: 1, request: { url: 'https://shop.example.test/api/search?q=shoes' } },
  },
  {
    segment: 'tcp', type: 'TCP', freq: '1h',
    body: { name: 'Database port', tags: ['db'], frequency: 60, request: { hostname: 'db.example.test', port: 5432 } },
  },
  {
    segment: 'url', type: 'URL', freq: '10m',
    body: { name: 'Status page', tags: ['web', 'staging'], request: { url: 'https://status.example.test/' } },
  },
  {
    segment: 'heartbeat', type: 'HEARTBEAT', freq: '10m',
    body: { name: 'Nightly backup', tags: ['batch'], heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } },
  },
] as const;

const SECRET_VALUE = 'never-print-me-7f3a9c';
const ALERT_ADDRESS = 'oncall@example.test';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Seeded {
  /** Check ids in the order of CHECKS. */
  ids: string[];
  channelId: number;
}

async function seed(client: TestClient): Promise<Seeded> {
  const created = async (method: string, route: string, body: unknown) => {
    const res = await client.request(method, route, body);
    expect(res.status, `${method} ${route}: ${res.text}`).toBe(201);
    return res.body;
  };
  // The channel comes first so that every check is subscribed to it (autoAssignAlerts defaults to true).
  const channel = await created('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: ALERT_ADDRESS } });
  await created('POST', '/v1/variables', { key: 'BASE_URL', value: 'https://shop.example.test' });
  await created('POST', '/v1/variables', { key: 'API_TOKEN', value: SECRET_VALUE, secret: true });
  const ids: string[] = [];
  for (const c of CHECKS) ids.push((await created('POST', `/v1/checks/${c.segment}`, c.body)).id);
  return { ids, channelId: channel.id };
}

/** The table line of the check with this id (the id is the last column). */
function rowOf(stdout: string, id: string): string {
  const line = stdout.split('\n').find((l) => l.trimEnd().endsWith(id));
  if (!line) throw new Error(`no table row for ${id} in:\n${stdout}`);
  return line;
}

describe.concurrent('the checkly CLI against Lookout', () => {
  let server: TestServer;
  let seeded: Seeded;
  let home: string;
  let cwd: string;

  beforeAll(async () => {
    server = await startTestServer();
    seeded = await seed(server.a);
    // A fresh HOME and config dir: the CLI must need no login state, and must not read the developer's.
    home = mkdtempSync(path.join(os.tmpdir(), 'lookout-cli-home-'));
    cwd = mkdtempSync(path.join(os.tmpdir(), 'lookout-cli-cwd-'));
  });

  afterAll(async () => {
    await server?.close();
    for (const dir of [home, cwd]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the CLI with `client`'s credentials (account a by default); output without ANSI codes. */
  function cli(args: string[], options: { client?: TestClient; env?: Record<string, string> } = {}): Promise<CliResult> {
    const client = options.client ?? server.a;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      CHECKLY_ENV: 'local',
      CHECKLY_API_URL: server.url,
      CHECKLY_API_KEY: client.apiKey,
      CHECKLY_ACCOUNT_ID: client.accountId,
      // No call to registry.npmjs.org, no ./.env from the working directory.
      CHECKLY_SKIP_NEW_VERSION_CHECK: 'true',
      CHECKLY_NO_DOTENV: '1',
      HOME: home,
      XDG_CONFIG_HOME: home,
      NO_COLOR: '1',
      ...options.env,
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI_BIN, ...args], { cwd, env, timeout: 60_000, maxBuffer: 10 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) });
      });
    });
  }

  it('whoami names the account, its id and the user behind the key', async ({ expect }) => {
    const r = await cli(['whoami']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`You are currently on account "Default account" (${server.a.accountId}) as Admin.`);
  });

  it('whoami with a personal key names the person it acts as', async ({ expect }) => {
    const invited = await server.a.request('POST', '/v1/accounts/me/invitations', { email: 'ada@example.com', role: 'READ_RUN' });
    const accepted = await server.raw('POST', `/v1/invitations/${invited.body.link.split('/').at(-1)}/accept`, {
      body: JSON.stringify({ name: 'Ada Lovelace', password: 'a long enough password' }), headers: { 'content-type': 'application/json' },
    });
    const cookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0]!;
    const made = await server.raw('POST', '/v1/accounts/me/api-keys', {
      body: JSON.stringify({ name: 'ada laptop', kind: 'personal' }),
      headers: { 'content-type': 'application/json', cookie, 'x-lookout-csrf': accepted.body.csrfToken },
    });
    expect(made.status, made.text).toBe(201);
    const r = await cli(['whoami'], { client: { ...server.a, apiKey: made.body.key } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`You are currently on account "Default account" (${server.a.accountId}) as Ada Lovelace.`);
  });

  it('checks list shows every check with its type, frequency, tags and id, and the total', async ({ expect }) => {
    const r = await cli(['checks', 'list']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`(${CHECKS.length} total checks)`);
    expect(r.stdout).toContain(`Showing 1-${CHECKS.length} of ${CHECKS.length} checks (page 1/1)`);
    expect(r.stdout).toContain('Shop front page');
    CHECKS.forEach((c, i) => {
      const row = rowOf(r.stdout, seeded.ids[i]!);
      expect(row).toContain(c.body.name);
      expect(row).toMatch(new RegExp(`\\s${c.type}\\s`));
      expect(row).toMatch(new RegExp(`\\s${c.freq}\\s`));
      expect(row).toContain(c.body.tags.join(', '));
    });
  });

  it('checks list takes its total from Content-Range, not from the page it got', async ({ expect }) => {
    const r = await cli(['checks', 'list', '--limit', '2', '--page', '2']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`Showing 3-4 of ${CHECKS.length} checks (page 2/3)`);
    expect(r.stdout).toContain(seeded.ids[2]);
    expect(r.stdout).toContain(seeded.ids[3]);
    expect(r.stdout).not.toContain(seeded.ids[0]);
  });

  it('checks list -o json passes every stored field through, with the pagination of Content-Range', async ({ expect }) => {
    const r = await cli(['checks', 'list', '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.pagination).toEqual({ page: 1, limit: 25, total: CHECKS.length, totalPages: 1 });
    expect(out.data.map((c: { id: string }) => c.id)).toEqual(seeded.ids);
    CHECKS.forEach((c, i) => {
      expect(out.data[i]).toMatchObject({ ...c.body, checkType: c.type, activated: true, muted: false });
      expect(out.data[i].alertChannelSubscriptions).toEqual([{ alertChannelId: seeded.channelId, activated: true }]);
    });
  });

  it('checks list --tag keeps only the checks carrying the tag', async ({ expect }) => {
    const r = await cli(['checks', 'list', '--tag', 'prod', '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.data.map((c: { name: string }) => c.name)).toEqual(['Homepage API', 'Search API']);
    expect(out.pagination.total).toBe(2);
  });

  it('checks list --tag with two tags (comma-separated) keeps the checks carrying both', async ({ expect }) => {
    const r = await cli(['checks', 'list', '--tag', 'web,staging']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('(1 total checks)');
    expect(rowOf(r.stdout, seeded.ids[3]!)).toContain('Status page');
  });

  it('checks list --type keeps only the checks of that type', async ({ expect }) => {
    const r = await cli(['checks', 'list', '--type', 'API']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('(2 total checks)');
    expect(rowOf(r.stdout, seeded.ids[0]!)).toContain('Homepage API');
    expect(rowOf(r.stdout, seeded.ids[1]!)).toContain('Search API');
    for (const id of seeded.ids.slice(2)) expect(r.stdout).not.toContain(id);
  });

  it('checks list --search matches names case-insensitively', async ({ expect }) => {
    const r = await cli(['checks', 'list', '--search', 'PAGE']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('(2 total checks)');
    expect(rowOf(r.stdout, seeded.ids[0]!)).toContain('Homepage API');
    expect(rowOf(r.stdout, seeded.ids[3]!)).toContain('Status page');
  });

  it('checks list with a filter nothing matches says so', async ({ expect }) => {
    const r = await cli(['checks', 'list', '--search', 'no such check']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('No checks matching');
  });

  it('checks get shows the details of one check', async ({ expect }) => {
    const id = seeded.ids[0]!;
    const r = await cli(['checks', 'get', id]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.split('\n').map((l) => l.trim());
    expect(lines).toContain('Homepage API');
    for (const expected of [
      /^Type:\s+API$/, /^Description:\s+Shop front page$/, /^Active:\s+yes$/, /^Frequency:\s+Every 5m$/,
      /^Locations:\s+us-east-1$/, /^Tags:\s+prod, web$/, /^URL:\s+https:\/\/shop\.example\.test\/$/, new RegExp(`^ID:\\s+${id}$`),
    ]) {
      expect(lines.some((l) => expected.test(l)), `${expected} in:\n${r.stdout}`).toBe(true);
    }
  });

  it('checks get -o json returns the stored check', async ({ expect }) => {
    const r = await cli(['checks', 'get', seeded.ids[2]!, '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.check).toMatchObject({ ...CHECKS[2].body, id: seeded.ids[2], checkType: 'TCP' });
    expect(out.check.alertChannels.email).toEqual([{ address: ALERT_ADDRESS }]);
    expect(out.check.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('checks get of an unknown id fails with the message of the 404 body', async ({ expect }) => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const r = await cli(['checks', 'get', unknown]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Failed to get check details.');
    expect(r.stdout).toContain(`Check ${unknown} not found`);
  });

  it('env ls prints each variable, and a secret variable without its value', async ({ expect }) => {
    const r = await cli(['env', 'ls']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('Environment variables:');
    expect(lines).toContain('BASE_URL=https://shop.example.test');
    expect(lines).toContain('API_TOKEN=');
    expect(r.stdout + r.stderr).not.toContain(SECRET_VALUE);
  });

  it('runtimes prints the runtime catalogue, newest first, with each Node.js version', async ({ expect }) => {
    const r = await cli(['runtimes']);
    expect(r.code, r.stderr).toBe(0);
    const runtimes = JSON.parse(r.stdout) as { name: string; stage: string; nodeVersion: string; dependencies: object }[];
    const names = runtimes.map((rt) => rt.name);
    expect(names).toEqual(expect.arrayContaining(['2026.04', '2025.04', '2024.09', '2024.02', '2023.09', '2023.02', '2022.10']));
    expect(names).toEqual([...names].sort().reverse());
    for (const rt of runtimes) {
      expect(rt.nodeVersion, rt.name).toMatch(/^\d+/);
      expect(rt.stage, rt.name).toMatch(/^[A-Z_]+$/);
      expect(typeof rt.dependencies).toBe('object');
    }
  });

  it('alert-channels list shows the channel with its target, subscriptions and id', async ({ expect }) => {
    const r = await cli(['alert-channels', 'list']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith('email'));
    expect(row, r.stdout).toBeDefined();
    expect(row).toContain(ALERT_ADDRESS);
    expect(row).toMatch(new RegExp(`\\s${CHECKS.length}\\s`));
    expect(row!.trimEnd()).toMatch(new RegExp(`\\s${seeded.channelId}$`));
    expect(r.stdout).toContain('Showing 1-1 of 1 alert channels (page 1/1)');
  });

  it('alert-channels list -o json returns the stored channels and the total', async ({ expect }) => {
    const r = await cli(['alert-channels', 'list', '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.pagination).toEqual({ page: 1, limit: 25, total: 1, totalPages: 1 });
    expect(out.data).toHaveLength(1);
    expect(out.data[0]).toMatchObject({ id: seeded.channelId, type: 'EMAIL', config: { address: ALERT_ADDRESS } });
    expect(out.data[0].subscriptions.map((s: { checkId: string }) => s.checkId).sort()).toEqual([...seeded.ids].sort());
  });

  it('another account sees none of these checks or channels', async ({ expect }) => {
    const [checks, channels] = await Promise.all([
      cli(['checks', 'list'], { client: server.b }),
      cli(['alert-channels', 'list'], { client: server.b }),
    ]);
    expect(checks.code, checks.stdout + checks.stderr).toBe(0);
    expect(checks.stdout).toContain('No checks found.');
    expect(channels.code, channels.stdout + channels.stderr).toBe(0);
    expect(channels.stdout).toContain('No alert channels found.');
  });

  it('an unknown API key stops every command at the account preflight', async ({ expect }) => {
    const r = await cli(['checks', 'list'], { env: { CHECKLY_API_KEY: 'lo_not-a-real-key-0000000000000000' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Authentication failed');
    expect(r.stderr).toContain('Unknown API key');
  });

  it('an account id that the key does not belong to is refused', async ({ expect }) => {
    const r = await cli(['whoami'], { env: { CHECKLY_ACCOUNT_ID: server.b.accountId } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not give access to account/);
  });
});
