import DataLoader from 'dataloader';
import type { ClientCertificateCredentials } from '../store/client-certificates-repository.js';
import type { Repositories } from '../store/repositories.js';
import type { ScheduledCheckRow } from '../store/runner-repository.js';

/** An account variable as a run reads it. */
export interface StoredRunVariable {
  key: string;
  value: string;
  secret: boolean;
}

/** What a run reads from storage before it starts (see prepareRun). */
export interface RunReads {
  check(id: string): Promise<ScheduledCheckRow | undefined>;
  accountVariables(accountId: string): Promise<StoredRunVariable[]>;
  snippetScripts(accountId: string, ids: number[]): Promise<Map<number, string>>;
  clientCertificates(accountId: string): Promise<ClientCertificateCredentials[]>;
}

/** One statement per read: for a lone run (on demand, an agent's, a test session's). */
export function directRunReads(repos: Repositories): RunReads {
  return {
    check: (id) => repos.runner.check(id),
    accountVariables: (accountId) => repos.runner.accountVariables(accountId),
    snippetScripts: (accountId, ids) => repos.runner.snippetScripts(accountId, ids),
    clientCertificates: (accountId) => repos.clientCertificates.forRun(accountId),
  };
}

/**
 * Reads asked for in one turn of the event loop share one statement of each kind: the worker
 * claims scheduled runs by the hundred, and each of them reading its check, its account's
 * variables and certificates alone made those the most frequent statements of a busy server.
 * Nothing is cached past the batch, so a change counts from the next run on, as with directRunReads.
 */
export function batchedRunReads(repos: Repositories): RunReads {
  const byId = <K, V>(load: (keys: readonly K[]) => Promise<Map<K, V>>, missing: V) =>
    new DataLoader<K, V>(async (keys) => {
      const found = await load(keys);
      return keys.map((k) => found.get(k) ?? missing);
    }, { cache: false });
  const checks = byId<string, ScheduledCheckRow | undefined>(
    async (ids) => new Map((await repos.runner.checksById(ids)).map((row) => [row.id, row])),
    undefined,
  );
  const variables = byId<string, StoredRunVariable[]>((ids) => repos.runner.accountVariablesOf(ids), []);
  const certificates = byId<string, ClientCertificateCredentials[]>((ids) => repos.clientCertificates.forRuns(ids), []);
  return {
    check: (id) => checks.load(id),
    accountVariables: (accountId) => variables.load(accountId),
    snippetScripts: (accountId, ids) => repos.runner.snippetScripts(accountId, ids),
    clientCertificates: (accountId) => certificates.load(accountId),
  };
}
