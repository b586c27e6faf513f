import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import type { TestClient, TestServer } from './test-server.js';

// The package's `exports` hide package.json from require.resolve: read it where npm installs it.
const CLI_DIR = fileURLToPath(new URL('../../node_modules/checkly/', import.meta.url));
const CLI_BIN = path.join(CLI_DIR, (JSON.parse(readFileSync(path.join(CLI_DIR, 'package.json'), 'utf8')) as { bin: { checkly: string } }).bin.checkly);

/** How a CLI run ended; output without ANSI codes. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where and as whom the CLI runs. */
export interface CliPlace {
  /** A test server, or any Lookout (e.g. spawned) by its URL. */
  server: Pick<TestServer, 'url'>;
  client: Pick<TestClient, 'apiKey' | 'accountId'>;
  /** HOME and config folder (fresh per suite: no login state, not the developer's). */
  home: string;
  cwd: string;
  env?: Record<string, string>;
  /** How long the run may take before it is killed (default 90 s). */
  timeoutMs?: number;
}

/**
 * Runs the real `checkly` CLI against `server` with `client`'s key, its live results coming from
 * the server's own MQTT broker (`CHECKLY_MQTT_URL`, read when `CHECKLY_ENV=local`).
 */
export function runChecklyCli(args: string[], place: CliPlace): Promise<CliRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    CHECKLY_ENV: 'local',
    CHECKLY_API_URL: place.server.url,
    CHECKLY_MQTT_URL: `${place.server.url.replace(/^http/, 'ws')}/mqtt`,
    CHECKLY_API_KEY: place.client.apiKey,
    CHECKLY_ACCOUNT_ID: place.client.accountId,
    // No call to registry.npmjs.org, no ./.env from the working directory.
    CHECKLY_SKIP_NEW_VERSION_CHECK: 'true',
    CHECKLY_NO_DOTENV: '1',
    HOME: place.home,
    XDG_CONFIG_HOME: place.home,
    NO_COLOR: '1',
    ...place.env,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, ...args], { cwd: place.cwd, env, timeout: place.timeoutMs ?? 90_000, maxBuffer: 10 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) });
    });
  });
}
