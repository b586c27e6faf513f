/**
 * A runner process of one sandboxed run, for tests that kill it (kill -9): it starts a script that
 * never ends (and first leaves a file `ran` in its working folder) in the sandbox, and prints
 * `{"ready": true}` once the script said it runs. With `die-before-gate` it prints
 * `{"work": <the run's host folder>}` and kills itself at once instead, before the sandbox is let
 * through its cgroups gate. Run with `node --import tsx`; `useCgroups` (`true` or `false`) first.
 */
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { createSandbox } from '../../src/runner/sandbox/create-sandbox.js';
import { CHROMIUM } from './chromium.js';

const sandbox = createSandbox({
  settings: { ...loadConfig({}).sandbox, mode: 'bwrap' }, chromiumPath: CHROMIUM, protectedPaths: [], logger: pino({ level: 'silent' }),
  useCgroups: process.argv[2] !== 'false',
});
const folder = await sandbox.createRunFolder();
folder.run({
  entry: 'request-script-child.mjs',
  nodeArgs: [],
  job: { script: "require('node:fs').writeFileSync('ran', ''); console.log('running'); setInterval(() => {}, 1000);", request: { method: 'GET', url: 'http://127.0.0.1/', headers: {}, queryParameters: {}, body: '' }, response: null, env: {} },
  timeoutMs: 600_000,
  signal: new AbortController().signal,
  onMessage: (message) => {
    if (message.type === 'log' && message.message === 'running') process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  },
  onOutput: () => {},
});
if (process.argv[3] === 'die-before-gate') {
  process.stdout.write(`${JSON.stringify({ work: folder.host.work })}\n`, () => process.kill(process.pid, 'SIGKILL'));
}
