import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CheckType } from '../domain/catalog.js';
import type { CheckData } from '../domain/check-defaults.js';
import { isCodeBundleKey, storedFileName } from '../domain/code-bundle-key.js';
import type { Issue } from '../domain/lookout-error.js';

/** The folder of uploaded files (`checkly-storage`) under the assets folder, where the upload route keeps them and the runner reads them. */
export function storageDirOf(assetsDir: string): string {
  return path.join(assetsDir, 'checkly-storage');
}

/**
 * A Playwright check suite's code bundle must have been uploaded to the account: its key is
 * checked against the stored files (`<storageDir>/<accountId>/`). Without `storageDir` the
 * service cannot see them and nothing is checked. The issue is keyed `codeBundlePath`.
 */
export async function codeBundleIssues(storageDir: string | undefined, accountId: string, type: CheckType, c: CheckData): Promise<Issue[]> {
  if (type !== 'PLAYWRIGHT' || !storageDir || !isCodeBundleKey(c.codeBundlePath)) return [];
  const file = path.join(storageDir, accountId, storedFileName(c.codeBundlePath));
  if (await stat(file).then((s) => s.isFile(), () => false)) return [];
  return [{ key: 'codeBundlePath', message: `no code bundle "${c.codeBundlePath}" was uploaded to this account (POST /next/checkly-storage/upload-code-bundle)` }];
}
