// Child process of runRequestScript: runs one setup or teardown script and reports over IPC.
// Plain JavaScript so it starts under bare `node` (no loader) as fast as possible.
import { createRequire } from 'node:module';
import { format } from 'node:util';

const require = createRequire(import.meta.url);
const AsyncFunction = (async () => {}).constructor;
let finished = false;

function send(message) {
  if (process.connected) process.send(message);
}

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

process.once('message', async ({ script, request, response }) => {
  try {
    const run = new AsyncFunction('request', 'response', 'require', script);
    await run(request, response, require);
    if (finished) return;
    finished = true;
    send({ type: 'done', request, response, env: { ...process.env } });
  } catch (err) {
    fail(err);
  }
});
send({ type: 'ready' });
