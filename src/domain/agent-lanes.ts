/**
 * Lanes of the run queue: who may claim a job. The runner processes take the '' lane; agents
 * take their location's lane. Private-location lanes carry the account, since slugs are unique
 * only within an account.
 */

/** An agent that has not reported for this long is gone: its lanes fall back and its leases lapse. */
export const AGENT_LIVE_MS = 15_000;

/** The runner processes' lane. */
export const RUNNER_LANE = '';

/** The lane of a private location's agents. */
export function privateLocationLane(accountId: string, slugName: string): string {
  return `pl:${accountId}:${slugName}`;
}

/** The lane of a data-center location's agents. */
export function dataCenterLane(location: string): string {
  return `dc:${location}`;
}

/** The lease owner name of an agent (runner processes use host:pid:uuid, never this prefix). */
export function agentLeaseOwner(agentId: string): string {
  return `agent:${agentId}`;
}
