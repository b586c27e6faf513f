import { createContext, useContext } from 'react';
import { restRequest, type RestAnswer } from '../shared/rest-answer.js';

/** A REST request made as the signed-in caller (their key, or their session cookie and CSRF token). */
export interface RestClient {
  <T = unknown>(method: string, path: string, body?: unknown): Promise<RestAnswer<T>>;
  /** The caller's headers, for downloads that are not JSON (result assets). */
  headers: Record<string, string>;
}

/** A REST client sending `headers` (those of the signed-in caller) with each request. */
export function createRestClient(headers: Record<string, string>): RestClient {
  const client = <T,>(method: string, path: string, body?: unknown) => restRequest<T>(method, path, headers, body);
  return Object.assign(client, { headers });
}

/** The signed-in console's REST client; outside the shell it sends no credentials (public pages). */
export const RestContext = createContext<RestClient>(createRestClient({ 'x-lookout-via': 'console' }));

/** The REST client of the signed-in caller: for what the console reads outside GraphQL (members, sessions, audit log). */
export function useRest(): RestClient {
  return useContext(RestContext);
}
