/** Files of src/runner/runtime a sandboxed run may start. */
export type RuntimeEntry = 'browser-check-child.mjs' | 'request-script-child.mjs' | 'agentic-browser-child.mjs' | 'playwright-suite-child.mjs';

/** A limit of the sandbox that ended a run. */
export type SandboxLimit = 'time' | 'memory' | 'processes' | 'output';

/** Error codes of runs a sandbox limit ended, or that could not run at all. */
export const SANDBOX_ERROR_CODES = {
  memory: 'SANDBOX_MEMORY',
  processes: 'SANDBOX_PROCESSES',
  output: 'SANDBOX_OUTPUT',
  unavailable: 'SANDBOX_UNAVAILABLE',
} as const;

/** One run of a runtime script in the sandbox. */
export interface SandboxRunSpec {
  entry: RuntimeEntry;
  /** Node.js flags, e.g. the heap limit. */
  nodeArgs: readonly string[];
  /** Handed to the script as JSON on its standard input; the run's variables travel here, never in an environment or argv the host can see. */
  job: unknown;
  /** Wall time, after which the run is killed with everything it started. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Each message the script wrote to the runner (one JSON object a line on fd 3). */
  onMessage(message: Record<string, unknown>): void;
  /** Each line the script printed. */
  onOutput(stream: 'stdout' | 'stderr', line: string): void;
}

/** How a sandboxed run ended. */
export interface SandboxExit {
  /** The limit that ended it, or null. */
  limit: SandboxLimit | null;
  /** Ended by the run's abort signal. */
  cancelled: boolean;
  /** The run's process could not be started (the message says why). */
  startError: string | null;
  exitCode: number | null;
  exitSignal: string | null;
  elapsedMs: number;
}

/** A started run: `stop()` ends it (its result is in); `done` settles once every process of it is gone. */
export interface SandboxProcess {
  stop(): void;
  done: Promise<SandboxExit>;
}

/** The private folders of one run, and the way to start it. */
export interface SandboxRunFolder {
  /** Where the service reads and writes them. */
  host: { work: string; project: string; shots: string };
  /** The same folders as the run sees them. */
  inside: { work: string; project: string; shots: string };
  run(spec: SandboxRunSpec): SandboxProcess;
  /** Removes the folders (the run must be done). */
  close(): Promise<void>;
}

/** Where user code runs: one per process, shared by every executor and agent. */
export interface Sandbox {
  mode: 'bwrap' | 'off';
  /** Why runs of code cannot start (each ends with SANDBOX_UNAVAILABLE and this), or null. */
  unavailable: string | null;
  /** One line for the start-up log: the mode and the limits in force. */
  description: string;
  /** The limits of each run, as configured (for the words of a run one of them ended). */
  limits: { memoryMb: number; processes: number; outputKb: number };
  createRunFolder(): Promise<SandboxRunFolder>;
  close(): void;
}
