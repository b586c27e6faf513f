import type { Sandbox, SandboxExit, SandboxLimit } from './sandbox.js';

/** Words for a run a sandbox limit (other than time, which executors word themselves) ended, naming the setting. */
export function sandboxLimitMessage(what: string, limit: Exclude<SandboxLimit, 'time'>, sandbox: Pick<Sandbox, 'limits'>): string {
  switch (limit) {
    case 'memory':
      return `${what} used more memory than the sandbox allows (${sandbox.limits.memoryMb} MiB, LOOKOUT_SANDBOX_MEMORY_MB) and was stopped`;
    case 'processes':
      return `${what} started more processes and threads than the sandbox allows (${sandbox.limits.processes}, LOOKOUT_SANDBOX_PROCESSES) and was stopped`;
    case 'output':
      return `${what} wrote more output than the sandbox allows (${sandbox.limits.outputKb} KiB, LOOKOUT_SANDBOX_OUTPUT_KB) and was stopped`;
  }
}

/**
 * The resource limit (memory, processes, output) a run met, if any. A script that failed while over
 * one (a fork refused, an allocation failed) was stopped by it, whichever of the script's error and
 * the sandbox's verdict arrived first: executors report this limit over the script's own error.
 */
export function exceededLimit(exit: Pick<SandboxExit, 'limit'>): Exclude<SandboxLimit, 'time'> | null {
  return exit.limit && exit.limit !== 'time' ? exit.limit : null;
}
