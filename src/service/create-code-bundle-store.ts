import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { STORED_FILE_KEY, storedFileName } from '../domain/code-bundle-key.js';
import { LookoutError } from '../domain/lookout-error.js';

/** Options of createCodeBundleStore. */
export interface CodeBundleStoreOptions {
  /** Folder the files go under, one sub-folder per account. */
  dir: string;
  /** Largest file accepted, in bytes. */
  maxBytes: number;
}

/** Keys are `<kind>/<uuid>`: nothing a caller sends can name a path outside its account's folder. */
const KEY = STORED_FILE_KEY;

/** The message the checkly CLI reads the limit from ("maximum allowed: <bytes>"). */
export function tooLargeMessage(maxBytes: number): string {
  return `Payload content length greater than maximum allowed: ${maxBytes}`;
}

/**
 * Files the checkly CLI uploads (`checkly-storage`): code bundles of `checkly test` and snapshots,
 * on disk under `<dir>/<accountId>/`, each at most `maxBytes` (the upload is cut off past it, 413).
 * An account reads only its own keys.
 */
export function createCodeBundleStore(options: CodeBundleStoreOptions) {
  const { dir, maxBytes } = options;
  const fileOf = (accountId: string, key: string) => path.join(dir, accountId, storedFileName(key));

  return {
    maxBytes,
    /** Stores `body` and resolves with its key. */
    async put(accountId: string, kind: 'code-bundle' | 'file', body: Readable): Promise<{ key: string; size: number }> {
      const key = `${kind}/${randomUUID()}`;
      const file = fileOf(accountId, key);
      await mkdir(path.dirname(file), { recursive: true });
      let size = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes) done(new LookoutError('PAYLOAD_TOO_LARGE', tooLargeMessage(maxBytes)));
          else done(null, chunk);
        },
      });
      try {
        await pipeline(body, limit, createWriteStream(file, { flags: 'wx' }));
        // A code bundle is what Playwright check suites run from: refused now, not at their first run.
        if (kind === 'code-bundle' && !(await isTarGzip(file))) {
          throw new LookoutError('VALIDATION', 'A code bundle must be a gzip-compressed tar archive (what the checkly CLI uploads)', {
            issues: [{ key: 'body', message: 'is not a gzip-compressed tar archive' }],
          });
        }
      } catch (err) {
        await rm(file, { force: true });
        throw err;
      }
      return { key, size };
    },
    /** A stored file of the account as a stream, or NOT_FOUND. */
    async open(accountId: string, key: string): Promise<{ stream: Readable; size: number }> {
      if (!KEY.test(key)) throw new LookoutError('NOT_FOUND', `No stored file has key "${key}"`);
      const file = fileOf(accountId, key);
      const info = await stat(file).catch(() => null);
      if (!info) throw new LookoutError('NOT_FOUND', `No stored file has key "${key}"`);
      return { stream: createReadStream(file), size: info.size };
    },
    /** Whether the account stored `key`. */
    async has(accountId: string, key: string): Promise<boolean> {
      return KEY.test(key) && (await stat(fileOf(accountId, key)).catch(() => null)) !== null;
    },
  };
}
export type CodeBundleStore = ReturnType<typeof createCodeBundleStore>;

/** Whether `file` is gzip whose content starts with a tar header ("ustar" at byte 257) or is an empty archive; only its start is inflated. */
async function isTarGzip(file: string): Promise<boolean> {
  const chunks: Buffer[] = [];
  let size = 0;
  const gunzip = createGunzip();
  const source = createReadStream(file);
  try {
    source.pipe(gunzip);
    for await (const chunk of gunzip) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= 512) break;
    }
  } catch {
    return false;
  } finally {
    source.destroy();
    gunzip.destroy();
  }
  const head = Buffer.concat(chunks);
  // `checkly test` uploads an empty archive (its end marker: zero blocks) for projects without suites.
  if (head.length === 0 || (head.length >= 512 && head.subarray(0, 512).every((b) => b === 0))) return true;
  return head.length >= 512 && head.subarray(257, 262).toString('latin1') === 'ustar';
}
