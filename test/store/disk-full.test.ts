import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/until.js';

const KEY = 'lo_disk_full_test_key_0123456789abcdef';
const ACCOUNT = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** A small tmpfs of the test's own (root only), or why there is none. */
function mountSmallDisk(): { dir: string } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'not root: mounting a small tmpfs needs it' };
  const dir = mkdtempSync(join(tmpdir(), 'lookout-disk-full-'));
  try {
    // Room for PGlite's fresh data folder (about 40 MB) and a little more.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** Why the test cannot mount its disk here (undefined: it can), found by mounting one and unmounting it. */
function cannotMount(): string | undefined {
  const probe = mountSmallDisk();
  if ('skip' in probe) return probe.skip;
  unmount(probe.dir);
  return undefined;
}

function unmount(dir: string): void {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}

const skip = cannotMount();
if (skip) console.warn(`skipping the disk-full tests: ${skip}`);

/** Fills the file system of `dir` with filler files until it refuses a single block more. */
function fill(dir: string): void {
  mkdirSync(join(dir, 'filler'), { recursive: true });
  for (const size of [1 << 20, 1 << 12]) {
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, 'filler', `${size}-${i}`), Buffer.alloc(size, 1));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        break;
      }
    }
  }
}

// Starts a real server process on a data folder of its own (PGlite initialises it): tens of seconds.
describe.skipIf(skip !== undefined)('an embedded server whose disk fills up', { timeout: 180_000 }, () => {
  let dir = '';
  let server: SpawnedServer;
  beforeAll(async () => {
    const disk = mountSmallDisk();
    if ('skip' in disk) throw new Error(disk.skip);
    dir = disk.dir;
    // Rate limiting off: writing until the disk refuses may take more than a minute's budget of writes.
    server = await spawnServer({ LOOKOUT_DATA_DIR: join(dir, 'data'), LOOKOUT_API_KEY: KEY, LOOKOUT_ACCOUNT_ID: ACCOUNT, LOOKOUT_RATE_LIMIT: '0' });
  }, 120_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (dir) unmount(dir);
  });

  const createCheck = async (name: string) => {
    const res = await fetch(`${server.url}/v1/checks/api`, {
      method: 'POST', headers, body: JSON.stringify({ name, activated: false, request: { url: 'https://full.test', body: 'x'.repeat(20_000) } }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('answers writes with a coded 507 naming the cause while it is full, keeps serving reads, and writes again once space is freed', async () => {
    expect((await createCheck('before the disk fills')).status).toBe(201);
    fill(dir);

    // Pages with room left may take a few more rows; the first write refused must be a STORAGE_FULL.
    let written = 0;
    const refused = await until(async () => {
      const answer = await createCheck(`while full ${written++}`);
      return answer.status === 201 ? undefined : answer;
    }, 'a write refused for the full disk', 60_000, 0);
    expect(refused.status).toBe(507);
    expect((await createCheck('still full')).status).toBe(507);
    expect(refused.body).toMatchObject({ statusCode: 507, error: 'Insufficient Storage', attributes: { code: 'STORAGE_FULL' } });
    expect(refused.body.message).toMatch(/No space left on device/);
    expect((await fetch(`${server.url}/v1/checks`, { headers })).status).toBe(200);
    expect(server.child.exitCode).toBeNull();

    rmSync(join(dir, 'filler'), { recursive: true, force: true });
    const after = await createCheck('after space is freed');
    expect(after.status).toBe(201);
    expect((await fetch(`${server.url}/v1/checks/${after.body.id}`, { headers })).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
