/**
 * A run's result arrived after its job's lease had expired and another process claimed the slot:
 * the result is dropped (the other run's counts), so no slot is stored twice.
 */
export class LeaseLostError extends Error {
  readonly code = 'LEASE_LOST';
  constructor(readonly jobId: string) {
    super(`the lease of run job ${jobId} was lost: another process runs this slot`);
  }
}
