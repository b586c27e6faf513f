import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { SandboxSettings } from '../../config.js';
import { bwrapArguments, SANDBOX_INSIDE_ID, SANDBOX_PATHS, type BwrapLayout } from './bwrap-arguments.js';
import { createCgroupLimits, type CgroupLimits } from './create-cgroup-limits.js';
import { NODE_MODULES_DIR, RUNTIME_DIR, systemLayout, type SystemLayout } from './sandbox-layout.js';
import { startSandboxProcess, type SandboxCommand } from './start-sandbox-process.js';
import type { Sandbox, SandboxRunFolder } from './sandbox.js';
import { isProcessAlive } from './is-process-alive.js';

/** What a sandbox is made from. */
export interface SandboxOptions {
  settings: SandboxSettings;
  /** The Chromium browser runs start (bound read-only when it lives outside /usr). */
  chromiumPath: string;
  /** Folders no run may see, checked against what it is given (the data and assets folders). */
  protectedPaths: readonly string[];
  logger: Logger;
  /** Where run folders are made (default: the system's temporary folder); the runs' users must be able to pass through it. */
  scratchDir?: string;
  /** false: limits by rlimits only, as on a host whose cgroups the service may not write (default true: cgroups where possible). */
  useCgroups?: boolean;
}

const PRLIMIT = 'prlimit';
const MIB = 1024 * 1024;

/**
 * The sandbox every piece of user code runs in (README, "The sandbox"). With mode `bwrap` each run is
 * a bubblewrap sandbox started as an unprivileged user of its own (when the service is root; else
 * the service's user, inside a user namespace), seeing only the runtime read-only, its bundle
 * read-only and its own scratch folders, with limits on time, memory, processes, output and file
 * size. The sandbox is tried once here: when it cannot work, `unavailable` says why and every run
 * of code fails with SANDBOX_UNAVAILABLE instead of running unsandboxed. Mode `off` runs the code
 * as plain child processes of the service (single-account servers only).
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const { settings, logger } = options;
  const memoryBytes = settings.memoryMb * MIB;
  const isRoot = process.getuid?.() === 0;
  const base = { memoryBytes, processes: settings.processes, outputBytes: settings.outputKb * 1024, fileBytes: settings.scratchMb * MIB };
  const scratchDir = options.scratchDir ?? os.tmpdir();
  const publicLimits = { memoryMb: settings.memoryMb, processes: settings.processes, outputKb: settings.outputKb };

  if (settings.mode === 'off') {
    const sandbox: Sandbox = {
      mode: 'off',
      unavailable: null,
      limits: publicLimits,
      description: 'sandbox off (LOOKOUT_SANDBOX=off): check code runs as a child process of the service, with its user and files',
      createRunFolder: () => createRunFolder({ kind: 'off', base, scratchDir }),
      close: () => {},
    };
    logger.warn({ sandbox: 'off' }, sandbox.description);
    return sandbox;
  }

  // Cleaned on close: the passwd and group files runs see, and the probe's folders.
  const own = mkdtempSync(path.join(scratchDir, 'lookout-sandbox-'));
  chmodSync(own, 0o755);
  const cleanup: (() => void)[] = [() => rmSync(own, { recursive: true, force: true })];

  let unavailable: string | null = null;
  let layout: SystemLayout | null = null;
  const found = systemLayout(process.execPath, options.chromiumPath, options.protectedPaths);
  if (typeof found === 'string') unavailable = found;
  else layout = found;
  let cgroups: CgroupLimits | null = null;
  let cgroupNote = '';
  if (options.useCgroups === false) cgroupNote = 'cgroups not used';
  else if (!unavailable) {
    const made = createCgroupLimits(`lookout-sandbox-${process.pid}`);
    if (typeof made === 'string') cgroupNote = made;
    else {
      cgroups = made;
      cleanup.unshift(() => made.close());
    }
  }
  const passwdFile = path.join(own, 'passwd');
  const groupFile = path.join(own, 'group');
  writeFileSync(passwdFile, `sandbox:x:${SANDBOX_INSIDE_ID}:${SANDBOX_INSIDE_ID}:sandbox:${SANDBOX_PATHS.home}:/usr/sbin/nologin\n`, { mode: 0o444 });
  writeFileSync(groupFile, `sandbox:x:${SANDBOX_INSIDE_ID}:\n`, { mode: 0o444 });

  const uids = createUidPool(isRoot ? settings.uidBase : null);
  const bwrap: BwrapKind = {
    kind: 'bwrap', base, scratchDir, settings, cgroups, uids,
    layout: (dirs, blockFd) => ({
      ...(layout as SystemLayout), passwdFile, groupFile, runtimeDir: RUNTIME_DIR, nodeModulesDir: NODE_MODULES_DIR,
      ...dirs, tmpfsBytes: base.fileBytes, blockFd,
    }),
  };
  if (!unavailable) unavailable = probe(bwrap, own);

  const description = describeBwrap(settings, unavailable, isRoot, cgroups ? null : cgroupNote);
  if (unavailable) logger.error({ sandbox: 'bwrap', unavailable }, description);
  else logger.info({ sandbox: 'bwrap' }, description);
  return {
    mode: 'bwrap',
    unavailable,
    description,
    limits: publicLimits,
    createRunFolder: () => {
      if (unavailable) return Promise.reject(new Error(unavailable));
      return createRunFolder(bwrap);
    },
    close: () => {
      for (const f of cleanup) {
        try {
          f();
        } catch (err) {
          logger.warn({ err }, 'sandbox clean-up failed');
        }
      }
    },
  };
}

/** The start-up log line of a bwrap sandbox: why it cannot work, or who runs the code and which limits hold how. */
function describeBwrap(settings: SandboxSettings, unavailable: string | null, isRoot: boolean, noCgroupsBecause: string | null): string {
  if (unavailable) return `sandbox unavailable: ${unavailable}; runs of check code fail until this is fixed (or LOOKOUT_SANDBOX=off on a single-account server)`;
  const who = isRoot ? `each run as its own user from uid ${settings.uidBase}` : 'runs as the service user in a user namespace';
  const limits = noCgroupsBecause === null
    ? `memory ${settings.memoryMb} MiB and ${settings.processes} processes per run (cgroups)`
    : `memory ${settings.memoryMb} MiB per process (rlimit; ${noCgroupsBecause})${isRoot ? `, ${settings.processes} processes per run (rlimit)` : ', no process limit (the service is not root)'}`;
  return `sandbox bwrap: ${who}, ${limits}, output ${settings.outputKb} KiB, files ${settings.scratchMb} MiB`;
}

type Limits = { memoryBytes: number; processes: number; outputBytes: number; fileBytes: number };
type BwrapKind = {
  kind: 'bwrap';
  base: Limits;
  scratchDir: string;
  settings: SandboxSettings;
  cgroups: CgroupLimits | null;
  uids: UidPool;
  layout: (dirs: Pick<BwrapLayout, 'work' | 'project' | 'shots'>, blockFd: number | null) => BwrapLayout;
};
type Kind = BwrapKind | { kind: 'off'; base: Limits; scratchDir: string };

/** How one bwrap run is started, limits included (prlimit sets hard and soft rlimits before bwrap starts). */
function bwrapCommand(k: BwrapKind, dirs: Pick<BwrapLayout, 'work' | 'project' | 'shots'>, uid: number | null, nodeArgv: readonly string[]): SandboxCommand {
  const rlimits = [`--core=0`, `--fsize=${k.base.fileBytes}`];
  if (!k.cgroups) {
    rlimits.push(`--data=${k.base.memoryBytes}`);
    if (uid !== null) rlimits.push(`--nproc=${k.base.processes}`);
  }
  const blockFd = k.cgroups ? 4 : null;
  const node = [process.execPath, ...nodeArgv];
  return {
    file: PRLIMIT,
    args: [...rlimits, '--', k.settings.bwrapPath, ...bwrapArguments(k.layout(dirs, blockFd), node)],
    cwd: '/',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: SANDBOX_PATHS.home, TMPDIR: SANDBOX_PATHS.tmp, LANG: 'C.UTF-8' },
    uid,
    cgroups: k.cgroups ? k.cgroups.create(`run-${randomBytes(6).toString('hex')}`, { memoryBytes: k.base.memoryBytes, processes: k.base.processes }) : null,
  };
}

/** Runs `node -e` with the runtime's packages in a throw-away sandbox: null when it works, else why not. */
function probe(k: BwrapKind, own: string): string | null {
  const dirs = { work: path.join(own, 'probe-work'), project: path.join(own, 'probe-project'), shots: path.join(own, 'probe-shots') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { mode: 0o755 });
  const uid = k.uids.take();
  try {
    return probeAs(k, dirs, uid);
  } finally {
    k.uids.give(uid);
  }
}

function probeAs(k: BwrapKind, dirs: Pick<BwrapLayout, 'work' | 'project' | 'shots'>, uid: number | null): string | null {
  const script = `require(${JSON.stringify(path.posix.join(SANDBOX_PATHS.nodeModules, 'playwright-core/package.json'))}); process.stdout.write(String(process.getuid()))`;
  const command = bwrapCommand({ ...k, cgroups: null }, dirs, uid, ['-e', script]);
  const result = spawnSync(command.file, command.args, {
    cwd: command.cwd, env: command.env, encoding: 'utf8', timeout: 30_000, ...(uid !== null ? { uid, gid: uid } : {}),
  });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    return missing ? `${PRLIMIT} (util-linux) is not installed` : `could not start ${PRLIMIT}: ${result.error.message}`;
  }
  if (result.status !== 0 || result.stdout.trim() !== String(SANDBOX_INSIDE_ID)) {
    const why = (result.stderr || result.stdout || `exit ${result.status ?? result.signal}`).trim().split('\n').slice(-2).join(' ');
    if (/No such file or directory/.test(why) && /execvp|exec/.test(why) && why.includes(k.settings.bwrapPath)) {
      return `bubblewrap is not installed (apt-get install bubblewrap, or set LOOKOUT_SANDBOX_BWRAP): ${why}`;
    }
    return `bubblewrap (${k.settings.bwrapPath}) could not start a sandbox: ${why}`;
  }
  return null;
}

/** Each run in flight gets its own user id (root only): base, base+1, … reused once free. */
interface UidPool {
  base: number | null;
  take(): number | null;
  give(uid: number | null): void;
}

/** Where runner processes on one host claim the user ids of their runs, one file per id holding the owner's pid. */
const UID_CLAIMS = '/run/lookout-sandbox-uids';

/**
 * User ids for runs, unique across every runner process on the host: an id is claimed by creating
 * its file exclusively, and a claim whose process is gone (killed -9) is taken over.
 */
function createUidPool(base: number | null): UidPool {
  if (base !== null) mkdirSync(UID_CLAIMS, { recursive: true, mode: 0o700 });
  const claim = (uid: number): boolean => {
    const file = path.join(UID_CLAIMS, String(uid));
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = Number(readFileSync(file, 'utf8'));
    if (owner === process.pid || isProcessAlive(owner)) return false;
    rmSync(file, { force: true });
    return claim(uid);
  };
  return {
    base,
    take() {
      if (base === null) return null;
      let uid = base;
      while (!claim(uid)) uid++;
      return uid;
    },
    give(uid) {
      if (uid !== null) rmSync(path.join(UID_CLAIMS, String(uid)), { force: true });
    },
  };
}


async function createRunFolder(k: Kind): Promise<SandboxRunFolder> {
  const root = await mkdtemp(path.join(k.scratchDir, 'lookout-run-'));
  const host = { work: path.join(root, 'work'), project: path.join(root, 'project'), shots: path.join(root, 'shots') };
  const uid = k.kind === 'bwrap' ? k.uids.take() : null;
  try {
    await Promise.all(Object.values(host).map((dir) => mkdir(dir)));
    if (k.kind === 'off') await Promise.all([mkdir(path.join(root, 'home')), mkdir(path.join(root, 'tmp'))]);
    // The run's user may pass through the root; it owns only its writable folders. The project stays read-only.
    await chmod(root, 0o711);
    await chmod(host.project, 0o755);
    if (uid !== null) await Promise.all([chown(host.work, uid, uid), chown(host.shots, uid, uid)]);
  } catch (err) {
    if (k.kind === 'bwrap') k.uids.give(uid);
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  const inside = k.kind === 'bwrap' ? { work: SANDBOX_PATHS.work, project: SANDBOX_PATHS.project, shots: SANDBOX_PATHS.shots } : host;
  return {
    host,
    inside,
    run(spec) {
      let command: SandboxCommand;
      try {
        command = k.kind === 'bwrap'
          ? bwrapCommand(k, host, uid, [...spec.nodeArgs, path.posix.join(SANDBOX_PATHS.runtime, spec.entry)])
          : {
            file: process.execPath,
            args: [...spec.nodeArgs, path.join(RUNTIME_DIR, spec.entry)],
            cwd: host.work,
            env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: path.join(root, 'home'), TMPDIR: path.join(root, 'tmp'), LANG: 'C.UTF-8' },
            uid: null,
            cgroups: null,
          };
      } catch (err) {
        return startSandboxProcess(null, spec, k.base, `the sandbox could not be prepared: ${(err as Error).message}`);
      }
      return startSandboxProcess(command, spec, k.base, null);
    },
    async close() {
      if (k.kind === 'bwrap') k.uids.give(uid);
      await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}
