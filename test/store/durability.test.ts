import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../support/spawn-server.js';

const KEY = 'lo_durability_test_key_0123456789abcdef';
const ACCOUNT = '7b0e6a52-3f7c-4c55-9d7e-2a1f8c0d9e11';

// Each test starts two or three real server processes (PGlite initialises its data folder on
// the first): minutes, not seconds, on a loaded two-core machine.
describe('the embedded server', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lookout-durability-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { LOOKOUT_DATA_DIR: dataDir, LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT };
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

  it('loses no acknowledged write when killed with SIGKILL', async () => {
    const first = await spawnServer(env);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${first.url}/v1/checks/api`, { method: 'POST', headers, body: JSON.stringify({ name: `durable ${i}`, request: { url: 'https://d.test' } }) });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await spawnServer(env);
    try {
      for (const [i, id] of ids.entries()) {
        const res = await fetch(`${second.url}/v1/checks/${id}`, { headers });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { name: string }).name).toBe(`durable ${i}`);
      }
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });

  it('writes a bootstrap key on first start to a file only its owner reads, prints where (never the key), and shuts down cleanly on SIGINT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookout-bootstrap-'));
    try {
      const server = await spawnServer({ LOOKOUT_DATA_DIR: dir, LOOKOUT_API_KEY: '', LOOKOUT_ACCOUNT_ID: '' });
      const keyFile = join(dir, 'initial-api-key');
      expect(server.output()).toContain(`Key file:   ${keyFile}`);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const key = readFileSync(keyFile, 'utf8').trim().split('\n').at(-1)!;
      expect(key).toMatch(/^lo_[0-9a-f]{64}$/);
      expect(server.output()).not.toContain(key);
      expect((await fetch(`${server.url}/v1/checks`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      server.child.kill('SIGINT');
      expect(await server.exited).toBe(0);
      const again = await spawnServer({ LOOKOUT_DATA_DIR: dir, LOOKOUT_API_KEY: '', LOOKOUT_ACCOUNT_ID: '' });
      expect(again.output()).not.toContain('Key file:');
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
