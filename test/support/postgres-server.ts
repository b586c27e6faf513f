import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './redis-server.js';
import { until } from './until.js';

const run = promisify(execFile);
const BIN = process.env.TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/** A PostgreSQL server of a test's own, which it may restart or kill. */
export interface OwnPostgres {
  url: string;
  /** `pg_ctl restart -m fast`: sessions are ended with 57P01, the server is back when this resolves. */
  restart(): Promise<void>;
  /** SIGKILL to the postmaster, then a start (crash recovery): resolves once it accepts connections. */
  killAndStart(): Promise<void>;
  /** `pg_ctl stop -m fast`: the server stays away until start(). */
  pause(): Promise<void>;
  /** Starts a paused server; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server for good and removes its files. */
  close(): Promise<void>;
}

/**
 * Why a test of a real PostgreSQL server of its own cannot run here (undefined: it can): it needs
 * the PostgreSQL binaries and root (the server runs as the `postgres` user).
 */
export function ownPostgresUnavailable(): string | undefined {
  if (!existsSync(join(BIN, 'initdb'))) return `no PostgreSQL binaries in ${BIN} (set TEST_POSTGRES_BIN)`;
  if (process.getuid?.() !== 0) return 'not root: the test server runs as the postgres user through runuser';
  return undefined;
}

const asPostgres = (cmd: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args]);

/** initdb into a fresh folder and starts the server on a free loopback port (trust auth, fsync on). */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_buffers=16MB -c max_connections=50`;
  const log = join(dir, 'server.log');
  const start = () => asPostgres('pg_ctl', ['-D', data, '-o', opts, '-l', log, '-w', '-t', '60', 'start']);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  async function accepting(): Promise<boolean> {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }

  return {
    url,
    async restart() {
      await asPostgres('pg_ctl', ['-D', data, '-o', opts, '-l', log, '-m', 'fast', '-w', '-t', '60', 'restart']);
      await until(accepting, 'PostgreSQL accepting connections after the restart');
    },
    async killAndStart() {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      // Its children notice the postmaster gone and exit; a new postmaster waits for them (shared memory).
      await until(async () => { try { process.kill(pid, 0); return false; } catch { return true; } }, 'the killed postmaster gone');
      await until(async () => {
        try {
          await start();
          return true;
        } catch {
          return false;
        }
      }, 'PostgreSQL started again after SIGKILL', 60_000, 250);
      await until(accepting, 'PostgreSQL accepting connections after crash recovery');
    },
    async pause() {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async start() {
      await start();
      await until(accepting, 'PostgreSQL accepting connections after its start');
    },
    async close() {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
