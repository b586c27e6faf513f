import type { Logger } from 'pino';
import { request } from 'undici';
import type { StoredEventHandler } from '../events/event-bus.js';
import type { LookoutEvent, LookoutEventType } from '../events/lookout-event.js';
import type { AccountEvents, AccountEventSources } from './subscriptions/account-event-source.js';

/** One account's events read from a service's `GET /v1/events/stream`. */
export interface RemoteEventSource extends AccountEvents {
  /** Resolves once the stream is live (the first time), rejects if the credentials are refused first. */
  ready: Promise<void>;
  close(): void;
}

/** Options of a remote event source. */
export interface RemoteEventSourceOptions {
  logger?: Logger;
  /** Called when the service refuses the credentials (401 or 403): the source stops for good. */
  onRevoked?: () => void;
  /** Waits before reconnecting after a dropped stream, in ms, the last one repeating; default 250, 1000, 5000, 15000. */
  retryDelaysMs?: number[];
}

/** Splits an SSE text stream into messages; comments and unknown fields are skipped. */
function* sseMessages(buffer: { text: string }): Generator<{ event: string; data: string }> {
  let end: number;
  while ((end = buffer.text.search(/\r?\n\r?\n/)) >= 0) {
    const block = buffer.text.slice(0, end);
    buffer.text = buffer.text.slice(end).replace(/^\r?\n\r?\n/, '');
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) yield { event, data: data.join('\n') };
  }
}

/**
 * Reads one account's events from the service at `backendUrl` over `GET /v1/events/stream`,
 * authenticated with `headers` (the caller's own Authorization and account headers), reconnecting
 * with backoff when the stream drops. Used by a GraphQL layer running apart from the service.
 */
export function createRemoteEventSource(backendUrl: string, headers: Record<string, string>, options: RemoteEventSourceOptions = {}): RemoteEventSource {
  const url = new URL('v1/events/stream', backendUrl.endsWith('/') ? backendUrl : `${backendUrl}/`).toString();
  const delays = options.retryDelaysMs ?? [250, 1000, 5000, 15_000];
  const handlers = new Map<LookoutEventType, Set<StoredEventHandler>>();
  const abort = new AbortController();
  let closed = false;
  let settle!: { resolve(): void; reject(err: Error): void };
  const ready = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {});

  const dispatch = (type: string, data: string) => {
    let event: LookoutEvent;
    try {
      event = JSON.parse(data) as LookoutEvent;
    } catch (err) {
      options.logger?.warn({ err, type }, 'ignoring a malformed remote event');
      return;
    }
    for (const handler of handlers.get(type as LookoutEventType) ?? []) {
      try {
        handler(event);
      } catch (err) {
        options.logger?.error({ err, type }, 'remote event handler failed');
      }
    }
  };

  async function readOnce(): Promise<'revoked' | 'dropped'> {
    const res = await request(url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream' },
      signal: abort.signal,
      // Heartbeats arrive every 15 s: three missed ones mean the connection is dead.
      bodyTimeout: 45_000,
    });
    if (res.statusCode === 401 || res.statusCode === 403) {
      await res.body.dump();
      return 'revoked';
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`the event stream answered ${res.statusCode}`);
    }
    res.body.setEncoding('utf8');
    const buffer = { text: '' };
    let live = false;
    for await (const chunk of res.body) {
      if (!live) {
        live = true;
        settle.resolve();
      }
      buffer.text += chunk as string;
      for (const message of sseMessages(buffer)) dispatch(message.event, message.data);
    }
    return 'dropped';
  }

  void (async () => {
    let failures = 0;
    while (!closed) {
      try {
        if ((await readOnce()) === 'revoked') {
          closed = true;
          settle.reject(new Error('the event stream refused the credentials'));
          options.onRevoked?.();
          return;
        }
        failures = 0;
      } catch (err) {
        if (closed) return;
        options.logger?.warn({ err, url }, 'remote event stream failed; reconnecting');
        failures++;
      }
      if (closed) return;
      const wait = delays[Math.min(failures, delays.length - 1)] ?? 1000;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        abort.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
    }
  })();

  return {
    ready,
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) handlers.set(type, (set = new Set()));
      set.add(handler as StoredEventHandler);
      return () => {
        set.delete(handler as StoredEventHandler);
      };
    },
    close() {
      closed = true;
      handlers.clear();
      abort.abort();
    },
  };
}

/**
 * Event sources reading each account's events from a remote service: one stream per account, opened
 * with the credentials of its first socket and closed with its last.
 */
export function createRemoteEventSources(backendUrl: string, options: { logger?: Logger } = {}): AccountEventSources {
  const accounts = new Map<string, { source: RemoteEventSource; leases: Set<() => void> }>();
  return {
    acquire(accountId, headers, onRevoked) {
      let entry = accounts.get(accountId);
      if (!entry) {
        const created: { source: RemoteEventSource; leases: Set<() => void> } = {
          leases: new Set(),
          source: createRemoteEventSource(backendUrl, headers, {
            logger: options.logger,
            onRevoked: () => {
              if (accounts.get(accountId) === created) accounts.delete(accountId);
              for (const revoke of [...created.leases]) revoke();
            },
          }),
        };
        accounts.set(accountId, created);
        entry = created;
      }
      const current = entry;
      current.leases.add(onRevoked);
      let released = false;
      return {
        events: current.source,
        ready: current.source.ready,
        release() {
          if (released) return;
          released = true;
          current.leases.delete(onRevoked);
          if (current.leases.size === 0) {
            current.source.close();
            if (accounts.get(accountId) === current) accounts.delete(accountId);
          }
        },
      };
    },
    async close() {
      for (const { source } of accounts.values()) source.close();
      accounts.clear();
    },
  };
}
