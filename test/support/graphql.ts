import { expect } from 'vitest';
import type { TestClient, TestServer } from './test-server.js';

/** A GraphQL answer as tests look at it. */
export interface GraphqlResult<T = any> {
  status: number;
  data?: T;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
  extensions?: { cost?: { restCalls: number; budget: number } };
}

/** Posts one operation to /graphql as `client` (its key and account header). */
export async function gql<T = any>(client: TestClient, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphqlResult<T>> {
  const res = await client.request('POST', '/graphql', { query, variables }, headers);
  return { status: res.status, ...res.body };
}

/**
 * Counts the REST requests the service takes (every `/v1/...` and `/v2/...` request, over HTTP or
 * in-process), so tests can check `extensions.cost` against what the backend actually saw.
 */
export function countRestRequests(s: TestServer): { readonly count: number; reset(): void; stop(): void } {
  let count = 0;
  const onRequest = (req: { url?: string }) => {
    if (req.url?.startsWith('/v1/') || req.url?.startsWith('/v2/')) count++;
  };
  const stop = s.onRequest(onRequest);
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
    stop,
  };
}

/** The data of an operation that must succeed: any error fails the test, naming the errors. */
export async function gqlData<T = any>(client: TestClient, query: string, variables?: Record<string, unknown>): Promise<T> {
  const res = await gql<T>(client, query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data as T;
}

/** An operation's answer and the REST requests `s` received for it, after the once-per-30-s key check is out of the way. */
export async function gqlCounted<T = any>(s: TestServer, client: TestClient, query: string, variables?: Record<string, unknown>): Promise<{ res: GraphqlResult<T>; count: number }> {
  await gql(client, '{ __typename }');
  const counter = countRestRequests(s);
  const res = await gql<T>(client, query, variables);
  counter.stop();
  return { res, count: counter.count };
}
