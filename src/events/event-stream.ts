import type { LookoutEventType } from './lookout-event.js';

/** Every event type the service publishes, as `types=` of the event stream accepts them. */
export const LOOKOUT_EVENT_TYPES = [
  'checkResultCreated', 'checkStatusChanged', 'alertNotified', 'testSessionUpdated', 'incidentUpdated', 'maintenanceUpdated', 'publicContentChanged',
] as const satisfies readonly LookoutEventType[];

/** Seconds between heartbeat comments of an idle event stream (proxies drop silent connections). */
export const EVENT_STREAM_HEARTBEAT_SECONDS = 15;

/**
 * Bytes of unsent events an event stream may hold for a client that reads too slowly; beyond it the
 * stream ends (the client reconnects and resumes with new events).
 */
export const EVENT_STREAM_MAX_BUFFER_BYTES = 4 * 1024 * 1024;
