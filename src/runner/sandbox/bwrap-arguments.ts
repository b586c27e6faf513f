/** Where a sandboxed run finds things: fixed paths inside, whatever the host's layout. */
export const SANDBOX_PATHS = {
  /** The runtime's own scripts (src/runner/runtime), read-only. */
  runtime: '/sandbox/runtime',
  /** The service's installed packages (playwright-core, esbuild, …), read-only. */
  nodeModules: '/sandbox/node_modules',
  /** The run's working folder: its current directory, writable, kept until the run's files are collected. */
  work: '/sandbox/work',
  /** The check's own files (its bundle), read-only. */
  project: '/sandbox/project',
  /** Where the runtime writes the run's screenshots. */
  shots: '/sandbox/shots',
  /** HOME, a size-limited tmpfs. */
  home: '/sandbox/home',
  /** TMPDIR, a size-limited tmpfs (Chromium's profile lives here). */
  tmp: '/tmp',
} as const;

/** The user a run is inside its namespace (its id outside is another, unprivileged one). */
export const SANDBOX_INSIDE_ID = 1000;

/** Host folders and files one run of the sandbox sees. */
export interface BwrapLayout {
  /** Host folders bound read-only at their own path: /usr and the prefixes of node and Chromium when elsewhere. */
  readOnlyPaths: readonly string[];
  /** `[target, link]` pairs for the merged-/usr links (/bin → usr/bin, …). */
  symlinks: readonly (readonly [string, string])[];
  /** `[host path, path inside]` of the files and folders of /etc the runtime needs (DNS, TLS roots, fonts), bound read-only where they exist. */
  etcPaths: readonly (readonly [string, string])[];
  /** A passwd and group file naming only the sandbox user. */
  passwdFile: string;
  groupFile: string;
  runtimeDir: string;
  nodeModulesDir: string;
  /** The run's own host folders. */
  work: string;
  project: string;
  shots: string;
  /** Size of each tmpfs (HOME, /tmp), bytes. */
  tmpfsBytes: number;
  /** FD the sandbox waits on before it runs the command (the parent puts it in its cgroups first), or null. */
  blockFd: number | null;
}

/**
 * bwrap's arguments for one run of `command`: new user, PID, IPC, UTS and cgroup namespaces (the
 * network is shared: a check must reach its targets) and no further user namespaces inside, a
 * read-only root holding only the runtime,
 * the run's own folders, no capabilities, no new privileges, a new session (no terminal to inject
 * keystrokes into), and the sandbox killed with its parent.
 */
export function bwrapArguments(layout: BwrapLayout, command: readonly string[]): string[] {
  const args = [
    '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    '--uid', String(SANDBOX_INSIDE_ID), '--gid', String(SANDBOX_INSIDE_ID), '--hostname', 'sandbox',
    '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
    // No user namespace of its own inside: "root" in a nested namespace is kernel attack surface no check needs.
    '--disable-userns',
  ];
  for (const dir of layout.readOnlyPaths) args.push('--ro-bind', dir, dir);
  for (const [target, link] of layout.symlinks) args.push('--symlink', target, link);
  for (const [source, target] of layout.etcPaths) args.push('--ro-bind-try', source, target);
  args.push('--ro-bind', layout.passwdFile, '/etc/passwd', '--ro-bind', layout.groupFile, '/etc/group');
  args.push(
    '--proc', '/proc', '--dev', '/dev',
    '--size', String(layout.tmpfsBytes), '--perms', '0700', '--tmpfs', SANDBOX_PATHS.tmp,
    '--size', String(layout.tmpfsBytes), '--perms', '0700', '--tmpfs', SANDBOX_PATHS.home,
    '--ro-bind', layout.runtimeDir, SANDBOX_PATHS.runtime,
    '--ro-bind', layout.nodeModulesDir, SANDBOX_PATHS.nodeModules,
    '--ro-bind', layout.project, SANDBOX_PATHS.project,
    '--bind', layout.work, SANDBOX_PATHS.work,
    '--bind', layout.shots, SANDBOX_PATHS.shots,
    // The root bwrap builds is a writable tmpfs: nothing outside the run's folders may be written.
    '--remount-ro', '/',
    '--chdir', SANDBOX_PATHS.work,
  );
  if (layout.blockFd !== null) args.push('--block-fd', String(layout.blockFd));
  args.push('--', ...command);
  return args;
}
