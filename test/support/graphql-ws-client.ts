import { once } from 'node:events';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { SubscriptionServer } from '../../src/graphql/subscriptions/create-subscription-server.js';

/** A graphql-ws client of one account, connected (acknowledged) before it is returned. */
export async function connectGraphqlWs(baseUrl: string, params: Record<string, unknown>): Promise<Client> {
  let acked!: () => void;
  let failed!: (err: unknown) => void;
  const connected = new Promise<void>((resolve, reject) => {
    acked = resolve;
    failed = reject;
  });
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: params,
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: (err) => failed(err),
    on: { connected: () => acked(), closed: (e) => failed(e) },
  });
  await connected;
  return client;
}

/** The values of one subscription, taken in order as they arrive. */
export interface TestSubscription<T = any> {
  /** The next value not yet taken (waits for it). */
  next(): Promise<T>;
  /** Errors the subscription ended with, once it ended. */
  ended: Promise<unknown>;
  dispose(): void;
}

/**
 * Subscribes and resolves once the server's source for it is live (its `subscribed` instrumentation
 * event), so events published afterwards are certain to arrive.
 */
export async function subscribe<T = any>(
  client: Client, monitor: SubscriptionServer['monitor'], query: string, variables?: Record<string, unknown>,
): Promise<TestSubscription<T>> {
  const values: T[] = [];
  const waiters: Array<(v: T) => void> = [];
  let end!: (v: unknown) => void;
  const ended = new Promise<unknown>((resolve) => {
    end = resolve;
  });
  const live = once(monitor, 'subscribed');
  const dispose = client.subscribe<T>({ query, variables }, {
    next: (v) => {
      const w = waiters.shift();
      if (w) w(v as T);
      else values.push(v as T);
    },
    error: (err) => end(err),
    complete: () => end(null),
  });
  await Promise.race([live, ended.then((err) => {
    throw new Error(`subscription ended before it was live: ${JSON.stringify(err)}`);
  })]);
  return {
    next: () => (values.length > 0 ? Promise.resolve(values.shift()!) : new Promise<T>((resolve) => waiters.push(resolve))),
    ended,
    dispose,
  };
}

/**
 * Subscribes with `payload` and resolves with how the server refused it (its errors), then with
 * what a plain `{ __typename }` answers on the same socket afterwards: a refusal must not cost the
 * client its connection.
 */
export async function refusedThenServed(client: Client, payload: { query: string; variables?: Record<string, unknown> }): Promise<{ refused: unknown; after: unknown }> {
  const refused = await new Promise<unknown>((resolve) => {
    client.subscribe(payload, { next: () => resolve('next'), error: resolve, complete: () => resolve('complete') });
  });
  const after = await new Promise<unknown>((resolve, reject) => {
    client.subscribe({ query: '{ __typename }' }, { next: resolve, error: reject, complete: () => undefined });
  });
  return { refused, after };
}
