import type { Config } from '../config.js';
import type { CheckType } from '../domain/catalog.js';
import path from 'node:path';
import type { Executor } from './executor.js';
import { createAgenticCheckExecutor } from './executors/run-agentic-check.js';
import { createApiCheckExecutor } from './executors/run-api-check.js';
import { createBrowserCheckExecutor } from './executors/run-browser-check.js';
import { runDnsCheck } from './executors/run-dns-check.js';
import { runGrpcCheck } from './executors/run-grpc-check.js';
import { runIcmpCheck } from './executors/run-icmp-check.js';
import { runSslCheck } from './executors/run-ssl-check.js';
import { createPlaywrightCheckExecutor } from './executors/run-playwright-check.js';
import { runTcpCheck } from './executors/run-tcp-check.js';
import { runTracerouteCheck } from './executors/run-traceroute-check.js';
import { runUrlCheck } from './executors/run-url-check.js';
import { limitConcurrency } from './limit-concurrency.js';
import type { Sandbox } from './sandbox/sandbox.js';

/**
 * The executor of each check type (HEARTBEAT is evaluated by the scheduler, not executed); every
 * piece of code a check brings runs in `sandbox`.
 */
export function createExecutors(config: Config, sandbox: Sandbox): Partial<Record<CheckType, Executor>> {
  const browser = limitConcurrency(
    createBrowserCheckExecutor({ chromiumPath: config.chromiumPath, assetsDir: config.assetsDir, sandbox }),
    config.browserConcurrency,
  );
  // Suites start Chromium too: as many at once as browser runs (a limit of their own).
  const suites = limitConcurrency(
    createPlaywrightCheckExecutor({ chromiumPath: config.chromiumPath, assetsDir: config.assetsDir, storageDir: path.join(config.assetsDir, 'checkly-storage'), sandbox }),
    config.browserConcurrency,
  );
  return {
    API: createApiCheckExecutor(sandbox),
    URL: runUrlCheck,
    TCP: runTcpCheck,
    DNS: runDnsCheck,
    ICMP: runIcmpCheck,
    BROWSER: browser,
    MULTI_STEP: browser,
    AGENTIC: limitConcurrency(createAgenticCheckExecutor({ settings: config.agentic, chromiumPath: config.chromiumPath, sandbox, assetsDir: config.assetsDir }), config.browserConcurrency),
    PLAYWRIGHT: suites,
    SSL: runSslCheck,
    TRACEROUTE: runTracerouteCheck,
    GRPC: runGrpcCheck,
  };
}
