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
 * Counts the REST requests the service receives (every `/v1/...` and `/v2/...` request on its HTTP server), so
 * tests can check `extensions.cost` against what the backend actually saw.
 */
export function countRestRequests(s: TestServer): { readonly count: number; reset(): void; stop(): void } {
  let count = 0;
  const onRequest = (req: { url?: string }) => {
    if (req.url?.startsWith('/v1/') || req.url?.startsWith('/v2/')) count++;
  };
  s.lookout.app.server.on('request', onRequest);
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
    stop() {
      s.lookout.app.server.off('request', onRequest);
    },
  };
}
