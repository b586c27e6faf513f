/** Keys of files uploaded through `/next/checkly-storage/*`: `<kind>/<uuid>`, per account. */
export const STORED_FILE_KEY = /^(code-bundle|file)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `key` names a code bundle (what a Playwright check suite's `codeBundlePath` holds). */
export function isCodeBundleKey(key: unknown): key is string {
  return typeof key === 'string' && key.startsWith('code-bundle/') && STORED_FILE_KEY.test(key);
}

/**
 * The file of a stored key inside its account's folder (`code-bundle/<uuid>` → `code-bundle-<uuid>`):
 * no key names a path outside it.
 */
export function storedFileName(key: string): string {
  return key.replace('/', '-');
}
