import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from './is-process-alive.js';

/** What the cgroups of one run saw: whether its memory or process limit was reached. */
export interface CgroupVerdict {
  memoryExceeded: boolean;
  processesExceeded: boolean;
}

/** The memory and process cgroups of one run. */
export interface RunCgroups {
  /** Moves the processes `pids` (the sandbox before it runs user code) into the run's cgroups. */
  enter(pids: readonly number[]): Promise<void>;
  /** True once the run hit its process limit (a fork was refused). */
  processesExceeded(): Promise<boolean>;
  verdict(): Promise<CgroupVerdict>;
  /** SIGKILLs whatever is still in the cgroups and removes them. */
  close(): Promise<void>;
}

/** Per-run cgroups under this process's own, in the cgroup v1 memory and pids hierarchies. */
export interface CgroupLimits {
  /** `memory` and `pids` folders holding the runs' cgroups. */
  readonly roots: { memory: string; pids: string };
  create(name: string, limits: { memoryBytes: number; processes: number }): RunCgroups;
  close(): void;
}

const V1_ROOT = '/sys/fs/cgroup';

/** This process's cgroup path in a v1 hierarchy (`N:memory:/path`), or null when it has none. */
function ownPath(controller: string): string | null {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  for (const line of lines) {
    const [, controllers, where] = line.split(':');
    if (controllers !== undefined && where !== undefined && controllers.split(',').includes(controller)) return where;
  }
  return null;
}

/**
 * Per-run cgroups for the sandbox, or the reason there are none. Uses the cgroup v1 `memory` and
 * `pids` controllers below this process's own cgroups (so a limit the host set on the service
 * still holds for its runs); needs write access to them, which root has. A host with cgroup v2
 * only, or without the access, gets null and the reason, and the sandbox falls back to rlimits.
 */
export function createCgroupLimits(tag: string): CgroupLimits | string {
  const memoryOwn = ownPath('memory');
  const pidsOwn = ownPath('pids');
  if (memoryOwn === null || pidsOwn === null) return 'no cgroup v1 memory and pids hierarchies (cgroup v2 only)';
  const roots = {
    memory: path.join(V1_ROOT, 'memory', memoryOwn, tag),
    pids: path.join(V1_ROOT, 'pids', pidsOwn, tag),
  };
  for (const dir of Object.values(roots)) removeStaleSiblings(dir);
  try {
    for (const dir of Object.values(roots)) mkdirSync(dir, { recursive: true });
    // The memory limit covers swap too where the kernel accounts it.
    writeFileSync(path.join(roots.memory, 'memory.use_hierarchy'), '1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EBUSY' || (err as NodeJS.ErrnoException).code === 'EINVAL') {
      // use_hierarchy is fixed once a cgroup has children, and always on in newer kernels.
    } else {
      return `cannot create cgroups under ${roots.memory} and ${roots.pids}: ${(err as Error).message}`;
    }
  }
  return {
    roots,
    create: (name, limits) => createRunCgroups(roots, name, limits),
    close: () => {
      for (const dir of Object.values(roots)) {
        try {
          rmdirSync(dir);
        } catch {
          // Still in use by a run that outlived close, or already gone.
        }
      }
    },
  };
}

/**
 * Removes the empty cgroups a process killed with -9 left beside `dir` (named `<prefix>-<pid>`
 * like it, whose pid is gone); ones still holding processes stay.
 */
function removeStaleSiblings(dir: string): void {
  const prefix = path.basename(dir).replace(/-\d+$/, '-');
  let names: string[] = [];
  try {
    names = readdirSync(path.dirname(dir));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (!name.startsWith(prefix) || !Number.isInteger(pid) || pid <= 0 || isProcessAlive(pid)) continue;
    const stale = path.join(path.dirname(dir), name);
    try {
      for (const child of readdirSync(stale, { withFileTypes: true })) if (child.isDirectory()) rmdirSync(path.join(stale, child.name));
      rmdirSync(stale);
    } catch {
      // Still in use, or not ours to remove.
    }
  }
}


function createRunCgroups(roots: CgroupLimits['roots'], name: string, limits: { memoryBytes: number; processes: number }): RunCgroups {
  const memory = path.join(roots.memory, name);
  const pids = path.join(roots.pids, name);
  mkdirSync(memory);
  mkdirSync(pids);
  writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
  try {
    writeFileSync(path.join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
  } catch {
    // No swap accounting on this kernel: the limit above is the only one.
  }
  writeFileSync(path.join(pids, 'pids.max'), String(limits.processes));

  const counter = async (file: string, key: string): Promise<number> => {
    const text = await readFile(file, 'utf8').catch(() => '');
    const line = text.split('\n').find((l) => l.startsWith(`${key} `));
    return line ? Number(line.slice(key.length + 1)) : 0;
  };
  const processesExceeded = async () => (await counter(path.join(pids, 'pids.events'), 'max')) > 0;

  return {
    async enter(list) {
      for (const pid of list) {
        await writeFile(path.join(memory, 'cgroup.procs'), String(pid));
        await writeFile(path.join(pids, 'cgroup.procs'), String(pid));
      }
    },
    processesExceeded,
    async verdict() {
      const [oomKills, processes] = await Promise.all([counter(path.join(memory, 'memory.oom_control'), 'oom_kill'), processesExceeded()]);
      // Not memory.failcnt: it also counts page cache reclaimed at the limit, which harms nobody.
      return { memoryExceeded: oomKills > 0, processesExceeded: processes };
    },
    async close() {
      for (const dir of [pids, memory]) {
        for (let attempt = 0; attempt < 50; attempt++) {
          const members = (await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
          for (const pid of members) {
            try {
              process.kill(Number(pid), 'SIGKILL');
            } catch {
              // Gone already.
            }
          }
          try {
            await rmdir(dir);
            break;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOENT') break;
            // Killed processes leave their cgroup a moment later.
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      }
    },
  };
}
