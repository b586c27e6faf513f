import type { ProbeResult, ResultType } from '../domain/check-result.js';
import type { RunJobLease } from '../store/run-jobs-repository.js';
import type { RunnableCheck } from './executor.js';

/** One attempt of one check, as an executor returned it. */
export interface RecordRunInput {
  check: RunnableCheck;
  /** Location (lane) the attempt ran in: the result's runLocation. */
  location: string;
  /** Shared by the attempts of one run and its FINAL result. */
  sequenceId: string;
  /** 1-based number of this attempt within the run. */
  attempts: number;
  resultType: ResultType;
  /** Secret values must already be scrubbed from it (executors do): it is stored as given. */
  probe: ProbeResult;
  /** Set for runs of a test session: kept out of the check's history, statuses and error groups. */
  testSessionId?: string | null;
  /** Maintenance windows in progress that cover the check (maintenance-effects.ts): the result is marked with them. */
  maintenanceWindowIds?: number[];
  /**
   * The queued job this run is (scheduled runs): the result is stored only while this process
   * still holds the job's lease, and a FINAL result is counted on the job in the same transaction
   * (refused once the job has one per location).
   */
  lease?: RunJobLease;
  /** Who ran it (default: this process, a runner). */
  ranOn?: RanOn;
}

/** Where a run really ran: a runner process (its host) or an agent of the location. */
export type RanOn = { kind: 'runner'; hostname: string } | { kind: 'agent'; agentId: string };
