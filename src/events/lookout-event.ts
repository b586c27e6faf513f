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

/**
 * Something a public page shows changed (a status page, service, incident, maintenance or dashboard):
 * published after the write commits, with the account's new public content version.
 */
export interface PublicContentChangedEvent {
  type: 'publicContentChanged';
  accountId: string;
  version: number;
  subject: 'statusPage' | 'service' | 'incident' | 'maintenance' | 'dashboard' | 'subscription' | 'check';
  /** The id of the thing written (a status page, service, incident, maintenance window or dashboard), or of a check a service is built from whose status changed. */
  subjectId: string;
}

/** An incident or one of its updates was created, changed or deleted. `incident` is its REST shape, null once deleted. */
export interface IncidentUpdatedEvent {
  type: 'incidentUpdated';
  accountId: string;
  incidentId: string;
  incident: Record<string, any> | null;
}

/** A maintenance window, one of its occurrences or an occurrence's update changed. Shapes are REST's; null once deleted. */
export interface MaintenanceUpdatedEvent {
  type: 'maintenanceUpdated';
  accountId: string;
  maintenanceWindowId: number;
  maintenanceId: string | null;
  maintenance: Record<string, any> | null;
}

/** The maintenance clock recorded a reminder due before a maintenance starts: subscriber notifications deliver it. */
export interface MaintenanceReminderDueEvent {
  type: 'maintenanceReminderDue';
  accountId: string;
  maintenanceWindowId: number;
  maintenanceId: string;
}

/**
 * A live message for the `checkly` CLI's MQTT topics. It goes through the bus because the CLI's
 * `/mqtt` connection may be held by another process than the one running its session: every
 * process's broker delivers it to its own subscribers. Internal: never on the public event stream.
 */
export interface MqttMessageEvent {
  type: 'mqttMessage';
  accountId: string;
  /** `account/<accountId>/...`. */
  topic: string;
  message: unknown;
}

/**
 * An API key was revoked: every process forgets it at once (key caches, open graphql-ws and MQTT
 * connections made with it). Carries the key's sha-256, never the key. Internal: never on the
 * public event stream.
 */
export interface ApiKeyRevokedEvent {
  type: 'apiKeyRevoked';
  accountId: string;
  keyId: string;
  keyHash: string;
}

/**
 * Who may do what changed: a member's role changed or they left an account (`userId`), or console
 * sessions ended (`sessionIds`: signed out, a new password). Every process drops what it cached of
 * those callers and closes their live connections. Internal: never on the public event stream.
 */
export interface AccessChangedEvent {
  type: 'accessChanged';
  accountId: string | null;
  userId: string | null;
  sessionIds: string[];
}

export type LookoutEvent = CheckResultCreatedEvent | CheckStatusChangedEvent | AlertNotifiedEvent | TestSessionUpdatedEvent
  | PublicContentChangedEvent | IncidentUpdatedEvent | MaintenanceUpdatedEvent | MaintenanceReminderDueEvent | MqttMessageEvent
  | ApiKeyRevokedEvent | AccessChangedEvent;
export type LookoutEventType = LookoutEvent['type'];
/** The event of one type. */
export type EventOf<T extends LookoutEventType> = Extract<LookoutEvent, { type: T }>;
