import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The file the first start writes its API key to, in the data directory. */
export const INITIAL_KEY_FILE = 'initial-api-key';
/** The file a running server tells the `lookout` command line where it listens and its local admin token, in the data directory. */
export const SERVER_FILE = 'lookout.server.json';

/** What a running server leaves for the command line (`lookout keys|accounts`) beside its data. */
export interface ServerFile {
  pid: number;
  /** Where this machine reaches the server (loopback when it listens on every interface). */
  url: string;
  /** Bearer token of the `/v1/admin/...` routes, valid until the server stops. */
  token: string;
}

/** Writes a file only its owner may read or write (0600), even when it existed with other modes. */
function writeOwnerOnly(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * Writes the key made on the first start to `<dataDir>/initial-api-key` (mode 0600), so it lands
 * in no log; answers the file's absolute path.
 */
export function writeInitialKeyFile(dataDir: string, accountId: string, apiKey: string | undefined, owner?: { email: string; password?: string }): string {
  mkdirSync(dataDir, { recursive: true });
  const path = resolve(join(dataDir, INITIAL_KEY_FILE));
  // The key stays the last line: `tail -1` reads it, as the first start's message says.
  const signIn = owner?.password ? `# Console sign-in: ${owner.email} / ${owner.password}\n` : '';
  writeOwnerOnly(path, `# Lookout API key of account ${accountId}, made on the first start. Delete this file once the key is saved.\n${signIn}${apiKey ? `${apiKey}\n` : ''}`);
  return path;
}

/** Writes `<dataDir>/lookout.server.json` (mode 0600) for the command line; answers a function removing it. */
export function writeServerFile(dataDir: string, info: ServerFile): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SERVER_FILE);
  writeOwnerOnly(path, `${JSON.stringify(info)}\n`);
  return () => {
    // Only our own: a server started since on this folder (after this one was killed) wrote its own.
    if (readServerFile(dataDir)?.pid === info.pid) rmSync(path, { force: true });
  };
}

/** The server file of a data directory, when there is a well-formed one (its process may have died since). */
export function readServerFile(dataDir: string): ServerFile | undefined {
  try {
    const info = JSON.parse(readFileSync(join(dataDir, SERVER_FILE), 'utf8')) as Partial<ServerFile>;
    if (typeof info.pid === 'number' && typeof info.url === 'string' && typeof info.token === 'string') return info as ServerFile;
  } catch {
    // Missing or being written: no server to talk to.
  }
  return undefined;
}
