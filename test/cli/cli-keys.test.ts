import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the `lookout` binary as users do; resolves with its exit code and output, whatever the code. */
function lookout(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/lookout.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
  });
}

describe('lookout keys and accounts while a server holds the embedded database', () => {
  let dir: string;
  let server: SpawnedServer;
  let env: Record<string, string>;
  let accountId: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lookout-keys-'));
    env = { LOOKOUT_DATA_DIR: dir, LOOKOUT_API_KEY: '', LOOKOUT_ACCOUNT_ID: '' };
    server = await spawnServer(env);
    accountId = /Account id:\s+(\S+)/.exec(server.output())![1]!;
  }, 300_000); // an embedded database and a server process: slow on a loaded 2-core machine
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  }, 60_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the command line a file only its owner reads, and goes through the server to create, list and revoke keys', async () => {
    expect(statSync(path.join(dir, 'lookout.server.json')).mode & 0o777).toBe(0o600);
    const created = await lookout(['keys', 'create', '--account', accountId, '--name', 'deploys'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^lo_[0-9a-f]{64}$/);
    expect((await fetch(`${server.url}/v1/checks`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    const listed = await lookout(['keys', 'list', '--account', accountId], env);
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.includes('"deploys"'))!;
    expect(line).toContain(`${key.slice(0, 11)}…${key.slice(-4)}`);
    expect(listed.stdout).not.toContain(key);
    const keyId = line.split(' ')[0]!;

    const revoked = await lookout(['keys', 'revoke', '--account', accountId, keyId], env);
    expect(revoked.code).toBe(0);
    expect((await fetch(`${server.url}/v1/checks`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  }, 240_000);

  it('makes an account with its first key through the server; API keys cannot use the admin routes', async () => {
    const made = await lookout(['accounts', 'create', '--name', 'Team B'], env);
    expect(made.code).toBe(0);
    const [, newAccount, newKey] = /account (\S+)\nkey (\S+)/.exec(made.stdout)!;
    const me = await fetch(`${server.url}/v1/accounts/me`, { headers: { authorization: `Bearer ${newKey}` } });
    expect(((await me.json()) as { id: string; name: string })).toMatchObject({ id: newAccount, name: 'Team B' });
    const firstKey = readFileSync(path.join(dir, 'initial-api-key'), 'utf8').trim().split('\n').at(-1)!;
    const refused = await fetch(`${server.url}/v1/admin/accounts`, {
      method: 'POST', headers: { authorization: `Bearer ${firstKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x' }),
    });
    expect(refused.status).toBe(401);
  }, 240_000);
});
