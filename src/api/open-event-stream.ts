import type { FastifyReply } from 'fastify';

/** Options of openEventStream. */
export interface EventStreamOptions {
  /** A comment every this many ms keeps an idle stream open through proxies; unset: none. */
  heartbeatMs?: number;
  /** Unsent bytes a client that stops reading may hold before the stream ends; unset: no limit. */
  maxBufferBytes?: number;
  /** Called once when the stream ends, whichever side ended it. */
  onEnd?: () => void;
}

/** One message of a stream: `data` is sent as JSON unless it is a string already. */
export interface EventStreamMessage {
  event?: string;
  data: unknown;
  id?: number;
  /** How long a client waits before it reconnects, in ms. */
  retry?: number;
}

/** A Server-Sent Events response in progress. */
export interface EventStream {
  /** Sends a message; ends the stream instead when the client is too far behind. */
  send(message: EventStreamMessage): void;
  /** Sends a comment line (clients ignore it). */
  comment(text: string): void;
  /** Ends the response (idempotent). */
  end(): void;
  isOpen(): boolean;
}

/** The wire form of one message. */
function formatSseMessage({ event, data, id, retry }: EventStreamMessage): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return `${retry === undefined ? '' : `retry: ${retry}\n`}${id === undefined ? '' : `id: ${id}\n`}${event ? `event: ${event}\n` : ''}`
    + `${text.split(/\r?\n/).map((line) => `data: ${line}`).join('\n')}\n\n`;
}

/**
 * Takes the reply over and starts a Server-Sent Events response (no caching, no proxy buffering):
 * the one writer of the event stream, deployment progress and public page streams.
 */
export function openEventStream(reply: FastifyReply, options: EventStreamOptions = {}): EventStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let open = true;
  const heartbeat = options.heartbeatMs ? setInterval(() => stream.comment('heartbeat'), options.heartbeatMs) : undefined;
  heartbeat?.unref();
  const stream: EventStream = {
    send(message) {
      if (!open) return;
      // A client that stops reading must not make the server buffer its messages without bound.
      if (options.maxBufferBytes !== undefined && res.writableLength > options.maxBufferBytes) return stream.end();
      res.write(formatSseMessage(message));
    },
    comment(text) {
      if (open) res.write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
    },
    end() {
      if (!open) return;
      open = false;
      if (heartbeat) clearInterval(heartbeat);
      res.end();
      options.onEnd?.();
    },
    isOpen: () => open,
  };
  res.on('close', () => stream.end());
  return stream;
}
