import type { Logger } from 'pino';
import type { CheckType } from '../domain/catalog.js';
import type { CheckData } from '../domain/check-defaults.js';
import type { ProbeResult } from '../domain/check-result.js';

/** A variable visible to a run: account < group < check, later ones winning on the same key. */
export interface RunVariable {
  key: string;
  value: string;
  /** Secret values are scrubbed from logs, errors and stored results. */
  secret: boolean;
}

/** A client certificate a run may present in TLS handshakes; its key never leaves the runner. */
export interface RunClientCertificate {
  /** Host name, IP address or `*.` wildcard (see matchClientCertificate). */
  host: string;
  cert: string;
  key: string;
  passphrase: string | null;
  /** Extra certificates trusted for the server. */
  ca: string | null;
}

/** A check ready to execute: its stored data with group settings already applied. */
export interface RunnableCheck {
  id: string;
  accountId: string;
  checkType: CheckType;
  name: string;
  /** The check document (see withCheckDefaults) after applyGroupSettings when it is in a group. */
  data: CheckData;
  groupId: number | null;
}

/** What an executor gets besides the check. */
export interface RunContext {
  /** Location (lane) this attempt runs in, recorded as the result's runLocation. */
  location: string;
  variables: RunVariable[];
  /** The account's client certificates: HTTP checks present the one matching each host they connect to. */
  clientCertificates?: readonly RunClientCertificate[];
  /** Hard limit of the attempt; executors stop and report ETIMEDOUT when it passes. */
  timeoutMs: number;
  /** Aborted when the run is cancelled or the process shuts down. */
  signal: AbortSignal;
  logger: Logger;
}

/**
 * Runs one attempt of one check against the real target. Never throws: every failure (network,
 * timeout, script error, unsupported type) comes back as data in the ProbeResult.
 */
export type Executor = (check: RunnableCheck, ctx: RunContext) => Promise<ProbeResult>;
