// The runtime scripts' side of the channel to the runner (start-sandbox-process.ts): the job
// arrives as JSON on standard input, messages go back as one JSON object a line on fd 3. Not
// Node's IPC channel: the runner counts and bounds every byte a run sends it.
import { readFileSync, writeSync } from 'node:fs';

const MESSAGE_FD = 3;

/** The job the runner wrote to standard input. */
export function readJob() {
  return JSON.parse(readFileSync(0, 'utf8'));
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
