import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The runtime's scripts (bound read-only into every run). */
export const RUNTIME_DIR = fileURLToPath(new URL('../runtime', import.meta.url));

/** The service's installed packages (playwright-core, esbuild, …): the folder holding playwright-core. */
export const NODE_MODULES_DIR = path.dirname(path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')));

/** What of /etc a run may read: name resolution, TLS roots, fonts, the dynamic linker's cache, Chromium's Debian settings. */
const ETC_PATHS = [
  '/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/host.conf', '/etc/gai.conf', '/etc/ssl', '/etc/ca-certificates',
  '/etc/fonts', '/etc/alternatives', '/etc/chromium.d', '/etc/chromium', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d',
  '/etc/localtime', '/etc/mime.types', '/etc/os-release',
];

/** Top-level names that merged-/usr systems link into /usr, bound as folders where they are folders. */
const ROOT_LINKS = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

/** The host's runtime as a run sees it: what is bound read-only, and the links beside it. */
export interface SystemLayout {
  readOnlyPaths: string[];
  symlinks: [string, string][];
  etcPaths: [string, string][];
}

function isWithin(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The read-only part of a run's view: /usr, the merged-/usr links, the /etc files above, and the
 * install folders of node (`nodePath`) and Chromium (`chromiumPath`) when they live outside /usr.
 * Refuses (returns the reason) when one of `protectedPaths` (the data and assets folders) would be
 * visible through it.
 */
export function systemLayout(nodePath: string, chromiumPath: string, protectedPaths: readonly string[]): SystemLayout | string {
  const readOnlyPaths = ['/usr'];
  const symlinks: [string, string][] = [];
  for (const name of ROOT_LINKS) {
    const at = `/${name}`;
    try {
      const info = lstatSync(at);
      if (info.isSymbolicLink()) symlinks.push([readlinkSync(at), at]);
      else if (info.isDirectory()) readOnlyPaths.push(at);
    } catch {
      // Not on this system.
    }
  }
  const covered = (file: string) => readOnlyPaths.some((dir) => isWithin(dir, file));
  const node = realpathSync(nodePath);
  // node's install prefix (…/bin/node → …), which holds its libraries too.
  if (!covered(node)) readOnlyPaths.push(path.dirname(path.dirname(node)));
  let chromium: string | null = null;
  try {
    chromium = realpathSync(chromiumPath);
  } catch {
    // Not installed: browser runs say so themselves.
  }
  if (chromium && !covered(chromium)) readOnlyPaths.push(path.dirname(chromium));
  for (const file of protectedPaths) {
    const resolved = path.resolve(file);
    const exposing = [...readOnlyPaths, NODE_MODULES_DIR, RUNTIME_DIR].find((dir) => isWithin(dir, resolved));
    if (exposing) return `${resolved} lies inside ${exposing}, which every run can read: move it elsewhere`;
  }
  const etcPaths: [string, string][] = [];
  for (const file of ETC_PATHS) {
    try {
      etcPaths.push([realpathSync(file), file]);
    } catch {
      // Not on this system.
    }
  }
  return { readOnlyPaths, symlinks, etcPaths };
}
