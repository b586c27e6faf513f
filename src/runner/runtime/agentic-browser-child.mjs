// The browser of one agentic check run (run-agentic-check.ts), in the sandbox: it starts Chromium
// behind a Playwright server on 127.0.0.1 (a random port and a random path), tells the runner its
// address, and stays up until the runner stops the run. The runner drives the pages over that
// socket; the conversation with the model, and its key, stay in the runner.
import { createRequire } from 'node:module';
import { readJob, send } from './runner-channel.mjs';

const nodeRequire = createRequire(import.meta.url);

/** job: {chromiumPath, launchArgs, launchTimeoutMs}. */
async function main(job) {
  const { chromium } = nodeRequire('playwright-core');
  try {
    const server = await chromium.launchServer({
      executablePath: job.chromiumPath,
      headless: true,
      args: job.launchArgs,
      host: '127.0.0.1',
      port: 0,
      timeout: job.launchTimeoutMs,
    });
    send({ type: 'browser', wsEndpoint: server.wsEndpoint() });
  } catch (err) {
    send({ type: 'error', message: `Chromium at ${job.chromiumPath} could not be started: ${err instanceof Error ? err.message : String(err)}` });
  }
  // Kept alive by the server; the runner ends this process and Chromium once it is done.
}

main(readJob());
