/** Everything the service publishes on its event bus, each scoped to one account. */

/** A run result was stored (FINAL or ATTEMPT). `result` is the REST shape of the check result. */
export interface CheckResultCreatedEvent {
  type: 'checkResultCreated';
  accountId: string;
  checkId: string;
  groupId: number | null;
  tags: string[];
  result: Record<string, any>;
}

/** A check's status (passing, degraded, failing) changed. `status` is the REST check-status shape. */
export interface CheckStatusChangedEvent {
  type: 'checkStatusChanged';
  accountId: string;
  checkId: string;
  previous: 'PASSING' | 'DEGRADED' | 'FAILING' | null;
  current: 'PASSING' | 'DEGRADED' | 'FAILING';
  status: Record<string, any>;
}

/** An alert notification was attempted (one event per delivery attempt). */
export interface AlertNotifiedEvent {
  type: 'alertNotified';
  accountId: string;
  checkId: string | null;
  notification: Record<string, any>;
}

/** A test session changed state. */
export interface TestSessionUpdatedEvent {
  type: 'testSessionUpdated';
  accountId: string;
  testSessionId: string;
  testSession: Record<string, any>;
}

export type LookoutEvent = CheckResultCreatedEvent | CheckStatusChangedEvent | AlertNotifiedEvent | TestSessionUpdatedEvent;
export type LookoutEventType = LookoutEvent['type'];
/** The event of one type. */
export type EventOf<T extends LookoutEventType> = Extract<LookoutEvent, { type: T }>;
