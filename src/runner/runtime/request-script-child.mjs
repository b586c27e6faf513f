// Runs one setup or teardown script in the sandbox (run-request-script.ts) and reports to the
// runner. Plain JavaScript so it starts under bare `node` (no loader) as fast as possible.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { readJob, send } from './runner-channel.mjs';
import { userFrame } from './user-frames.mjs';

const require = createRequire(import.meta.url);
const AsyncFunction = (async () => {}).constructor;
let finished = false;
let projectDir = null;

function fail(err) {
  if (finished) return;
  finished = true;
  const where = err instanceof Error && projectDir ? userFrame(err.stack, projectDir) : null;
  const message = err instanceof Error ? `${err.name}: ${err.message}${where ? ` (at ${where})` : ''}` : `thrown: ${format(err)}`;
  send({ type: 'error', message });
}

for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  console[level] = (...args) => send({ type: 'log', level, message: format(...args) });
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

/**
 * job: {script, request, response, env, and for a bundled script (TypeScript, ES modules, project
 * files) bundlePath (the ES module bundle-user-script.ts built, with its inline source map) and
 * projectDir (the folder it and the project's files sit in)}.
 */
const job = readJob();
const { script, env } = job;
// process.env is exactly the run's variables.
for (const key of Object.keys(process.env)) delete process.env[key];
Object.assign(process.env, env);
try {
  let request = job.request;
  let response = job.response;
  if (job.bundlePath) {
    projectDir = job.projectDir;
    // A module sees the request and response as globals (an assignment to them replaces them).
    const globals = { request, response, require, __lookoutRequire: require };
    for (const [name, value] of Object.entries(globals)) {
      Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
    }
    await import(pathToFileURL(job.bundlePath).href);
    request = globalThis.request;
    response = globalThis.response;
  } else {
    const run = new AsyncFunction('request', 'response', 'require', script);
    await run(request, response, require);
  }
  if (!finished) {
    finished = true;
    send({ type: 'done', request, response, env: { ...process.env } });
  }
} catch (err) {
  fail(err);
}
