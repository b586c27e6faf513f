import type { Config } from '../config.js';
import type { CheckType } from '../domain/catalog.js';
import type { Executor } from './executor.js';
import { runApiCheck } from './executors/run-api-check.js';
import { runDnsCheck } from './executors/run-dns-check.js';
import { runIcmpCheck } from './executors/run-icmp-check.js';
import { runTcpCheck } from './executors/run-tcp-check.js';
import { runUrlCheck } from './executors/run-url-check.js';

/** The executor of each check type this runner can run (HEARTBEAT is evaluated, not executed). */
export function createExecutors(_config: Config): Partial<Record<CheckType, Executor>> {
  return {
    API: runApiCheck,
    URL: runUrlCheck,
    TCP: runTcpCheck,
    DNS: runDnsCheck,
    ICMP: runIcmpCheck,
  };
}
