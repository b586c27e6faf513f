// The runtime scripts' side of the channel to the runner (start-sandbox-process.ts): the job
// arrives as one line of JSON on standard input, messages go back as one JSON object a line on
// fd 3. Not Node's IPC channel: the runner counts and bounds every byte a run sends it.
import { readSync, writeSync } from 'node:fs';

const MESSAGE_FD = 3;

/** Exit code of a run whose runner went away: nobody reads its result. */
const RUNNER_GONE = 70;

/**
 * The job the runner wrote to standard input, one line. The runner keeps standard input open for
 * the whole run as a lifeline: its end means the runner died (kill -9), and this process ends at
 * once, taking the sandbox with it, rather than running on unwatched and unlimited. No job at all
 * (the runner died before it could send one) ends it before any user code runs.
 */
export function readJob() {
  const chunks = [];
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    // A blocking read: the pipe the runner made is in blocking mode until process.stdin is touched.
    const n = readSync(0, buffer, 0, buffer.length, null);
    if (n === 0) process.exit(RUNNER_GONE);
    const newline = buffer.subarray(0, n).indexOf(10);
    chunks.push(Buffer.from(buffer.subarray(0, newline === -1 ? n : newline)));
    if (newline !== -1) break;
  }
  const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  // Nothing more comes on standard input: its end is the runner's.
  process.stdin.on('end', () => process.exit(RUNNER_GONE));
  process.stdin.on('error', () => process.exit(RUNNER_GONE));
  process.stdin.resume();
  // The lifeline alone must not keep a finished run alive.
  process.stdin.unref?.();
  return job;
}

/** Sends one message to the runner; a runner that went away ends this process. */
export function send(message) {
  const bytes = Buffer.from(`${JSON.stringify(message)}\n`);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(MESSAGE_FD, bytes, offset);
    } catch (err) {
      if (err?.code === 'EAGAIN') continue;
      process.exit(0);
    }
  }
}
