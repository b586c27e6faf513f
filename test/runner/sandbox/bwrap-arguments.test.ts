import { describe, expect, it } from 'vitest';
import { bwrapArguments, SANDBOX_PATHS, type BwrapLayout } from '../../../src/runner/sandbox/bwrap-arguments.js';

const layout: BwrapLayout = {
  readOnlyPaths: ['/usr', '/opt/node'],
  symlinks: [['usr/bin', '/bin']],
  etcPaths: [['/run/resolv.conf', '/etc/resolv.conf']],
  passwdFile: '/tmp/s/passwd',
  groupFile: '/tmp/s/group',
  runtimeDir: '/srv/lookout/src/runner/runtime',
  nodeModulesDir: '/srv/lookout/node_modules',
  work: '/tmp/run/work',
  project: '/tmp/run/project',
  shots: '/tmp/run/shots',
  tmpfsBytes: 1024,
  blockFd: 4,
};

/** The pairs that follow each occurrence of `flag`. */
function pairs(args: string[], flag: string): [string, string][] {
  return args.flatMap((a, i) => (a === flag ? [[args[i + 1]!, args[i + 2]!] as [string, string]] : []));
}

describe('the bubblewrap command line of a run', () => {
  const args = bwrapArguments(layout, ['/usr/bin/node', '/sandbox/runtime/request-script-child.mjs']);

  it('puts the run in new user, PID, IPC and UTS namespaces, keeping the network, without capabilities', () => {
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session', '--disable-userns']) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain('--unshare-net');
    expect(args).not.toContain('--share-net');
    expect(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2)).toEqual(['--cap-drop', 'ALL']);
  });

  it('binds the runtime and the check\'s files read-only and only the run\'s own folders writable', () => {
    expect(pairs(args, '--ro-bind')).toEqual(expect.arrayContaining([
      ['/usr', '/usr'], ['/opt/node', '/opt/node'], [layout.runtimeDir, SANDBOX_PATHS.runtime],
      [layout.nodeModulesDir, SANDBOX_PATHS.nodeModules], [layout.project, SANDBOX_PATHS.project],
      ['/tmp/s/passwd', '/etc/passwd'],
    ]));
    expect(pairs(args, '--bind')).toEqual([[layout.work, SANDBOX_PATHS.work], [layout.shots, SANDBOX_PATHS.shots]]);
    expect(pairs(args, '--ro-bind-try')).toEqual([['/run/resolv.conf', '/etc/resolv.conf']]);
    // The root bwrap builds is made read-only after everything is mounted.
    const remount = args.indexOf('--remount-ro');
    expect(args[remount + 1]).toBe('/');
    expect(remount).toBeGreaterThan(args.lastIndexOf('--bind'));
  });

  it('gives /tmp and HOME size-limited memory folders and starts in the working folder', () => {
    const sized = args.flatMap((a, i) => (a === '--size' ? [[args[i + 1], args[i + 4], args[i + 5]]] : []));
    expect(sized).toEqual([['1024', '--tmpfs', '/tmp'], ['1024', '--tmpfs', SANDBOX_PATHS.home]]);
    expect(args.slice(args.indexOf('--chdir'), args.indexOf('--chdir') + 2)).toEqual(['--chdir', SANDBOX_PATHS.work]);
  });

  it('waits on the given fd before the command, which comes last after --', () => {
    expect(args.slice(args.indexOf('--block-fd'), args.indexOf('--block-fd') + 2)).toEqual(['--block-fd', '4']);
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/usr/bin/node', '/sandbox/runtime/request-script-child.mjs']);
    expect(bwrapArguments({ ...layout, blockFd: null }, ['x'])).not.toContain('--block-fd');
  });
});
