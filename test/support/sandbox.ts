import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { createSandbox } from '../../src/runner/sandbox/create-sandbox.js';
import { CHROMIUM } from './chromium.js';

const probe = createSandbox({
  settings: { ...loadConfig({}).sandbox, mode: 'bwrap' }, chromiumPath: CHROMIUM, protectedPaths: [], logger: pino({ level: 'silent' }),
});

/** Whether bubblewrap can sandbox runs on this machine (.ci/run installs it; a bare machine may lack it). */
export const sandboxWorks = probe.unavailable === null;
/** Why the sandbox suites are skipped, when they are. */
export const SANDBOX_SKIP_REASON = probe.unavailable ? `${probe.unavailable}; apt-get install bubblewrap` : '';
probe.close();
if (!sandboxWorks && process.env.LOOKOUT_TEST_REQUIRE_SANDBOX) {
  throw new Error(`LOOKOUT_TEST_REQUIRE_SANDBOX is set but the sandbox cannot work here: ${probe.unavailable}`);
}
