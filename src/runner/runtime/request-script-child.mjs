// Runs one setup or teardown script in the sandbox (run-request-script.ts) and reports to the
// runner. Plain JavaScript so it starts under bare `node` (no loader) as fast as possible.
import { createRequire } from 'node:module';
import { format } from 'node:util';
import { readJob, send } from './runner-channel.mjs';

const require = createRequire(import.meta.url);
const AsyncFunction = (async () => {}).constructor;
let finished = false;

function fail(err) {
  if (finished) return;
  finished = true;
  const message = err instanceof Error ? `${err.name}: ${err.message}` : `thrown: ${format(err)}`;
  send({ type: 'error', message });
}

for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  console[level] = (...args) => send({ type: 'log', level, message: format(...args) });
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

const { script, request, response, env } = readJob();
// process.env is exactly the run's variables.
for (const key of Object.keys(process.env)) delete process.env[key];
Object.assign(process.env, env);
try {
  const run = new AsyncFunction('request', 'response', 'require', script);
  await run(request, response, require);
  if (!finished) {
    finished = true;
    send({ type: 'done', request, response, env: { ...process.env } });
  }
} catch (err) {
  fail(err);
}
