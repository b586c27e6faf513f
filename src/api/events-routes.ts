import type { Principal } from '../domain/principal.js';
import Type from 'typebox';
import { EVENT_STREAM_HEARTBEAT_SECONDS, EVENT_STREAM_MAX_BUFFER_BYTES, LOOKOUT_EVENT_TYPES } from '../events/event-stream.js';
import { createEventStreamService } from '../service/event-stream-service.js';
import type { Api, ApiContext } from './api-context.js';
import { openEventStream, type EventStream } from './open-event-stream.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { nonJson, responses } from '../contract/route-responses.js';

const EventStreamQuery = Type.Object({
  types: Type.Optional(Type.Array(Type.Enum([...LOOKOUT_EVENT_TYPES]), { minItems: 1, maxItems: LOOKOUT_EVENT_TYPES.length, uniqueItems: true })),
}, { additionalProperties: false });

/**
 * `GET /v1/events/stream`: the caller's account events as Server-Sent Events, for a GraphQL layer
 * (or any client) in another process. Heartbeat comments keep idle streams open; shutdown ends them.
 */
export function eventsRoutes(app: Api, { bus }: ApiContext): void {
  const streams = createEventStreamService({ bus });
  /** Open streams and who opened each. */
  const open = new Map<EventStream, Principal>();
  // A revoked key's streams end at once (the bus brings revocations from every process), and so do
  // the streams of ended sessions and of people who left the account.
  const unsubscribers = [
    bus.subscribe('apiKeyRevoked', (event) => {
      for (const [stream, who] of [...open]) if (who.keyId === event.keyId) stream.end();
    }),
    bus.subscribe('accessChanged', (event) => {
      for (const [stream, who] of [...open]) {
        const ended = who.sessionId !== null && event.sessionIds.includes(who.sessionId);
        const left = event.userId !== null && who.userId === event.userId && (event.accountId === null || event.accountId === who.accountId);
        if (ended || left) stream.end();
      }
    }),
  ];
  // Streams never finish on their own: without this, closing the server would wait for them forever.
  app.addHook('preClose', async () => {
    unsubscribers.forEach((stop) => stop());
    for (const stream of [...open.keys()]) stream.end();
  });

  app.get('/v1/events/stream', {
    schema: {
      operationId: 'streamEvents',
      tags: ['Events'],
      summary: "Stream the caller's account events (Server-Sent Events)",
      response: responses({ 200: nonJson('Server-Sent Events, one per account event', ['text/event-stream']) }),
      description: 'One SSE message per event: `event` is its type (checkResultCreated, checkStatusChanged, alertNotified, '
        + 'testSessionUpdated, incidentUpdated, maintenanceUpdated, publicContentChanged), `data` the event as JSON, `id` a sequence number of the stream. types (comma-separated) '
        + `narrows the types. A comment arrives at once when the stream is live and every ${EVENT_STREAM_HEARTBEAT_SECONDS} s after. `
        + 'Delivery is at-most-once: reconnecting streams do not replay. A client that falls more than 4 MiB behind is disconnected.',
      querystring: EventStreamQuery,
    },
    preValidation: normaliseQueryArrays(['types'], ['types']),
  }, async (req, reply) => {
    let seq = 0;
    let stop = () => {};
    const stream = openEventStream(reply, {
      heartbeatMs: EVENT_STREAM_HEARTBEAT_SECONDS * 1000,
      maxBufferBytes: EVENT_STREAM_MAX_BUFFER_BYTES,
      onEnd: () => {
        open.delete(stream);
        stop();
      },
    });
    open.set(stream, req.principal);
    stop = streams.open(req.principal.accountId, req.query.types ?? [], (event) => stream.send({ id: ++seq, event: event.type, data: event }));
    stream.comment('connected');
  });
}
