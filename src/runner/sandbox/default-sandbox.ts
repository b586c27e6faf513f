import pino from 'pino';
import { loadConfig } from '../../config.js';
import { createSandbox } from './create-sandbox.js';
import type { Sandbox } from './sandbox.js';

let shared: Sandbox | null = null;

/**
 * The sandbox made from this process's environment on first use, for executors used without one
 * of their own (runApiCheck, runBrowserCheck); the service and agents make theirs at start.
 */
export function defaultSandbox(): Sandbox {
  if (!shared) {
    const config = loadConfig();
    shared = createSandbox({
      settings: config.sandbox,
      chromiumPath: config.chromiumPath,
      protectedPaths: [config.dataDir, config.assetsDir],
      logger: pino({ level: config.logLevel, base: { service: 'lookout-sandbox' } }),
    });
    // Its cgroups and folders go with the process (close is synchronous).
    process.once('exit', () => shared?.close());
  }
  return shared;
}
