import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Folders searched for `traceroute` besides PATH: Debian installs it in /usr/sbin, which a non-root PATH often lacks. */
const SYSTEM_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * The `traceroute` program TRACEROUTE monitors run (Debian's, `apt-get install traceroute`): its
 * path, or null when this machine has none. Looked up on every call, so installing it needs no restart.
 */
export function findTraceroute(env: NodeJS.ProcessEnv = process.env): string | null {
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter((d) => d !== ''), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'traceroute');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
