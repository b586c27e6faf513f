/** Where the console and GraphiQL keep the caller's API key and account id (shared by both pages). */
export const API_KEY_STORAGE_KEY = 'lookout.apiKey';
export const ACCOUNT_ID_STORAGE_KEY = 'lookout.accountId';

/** What every request of the console authenticates with. */
export interface Credentials {
  apiKey: string;
  /** Sent as X-Lookout-Account; absent: the key's own account. */
  accountId?: string;
}

/** The subset of the Storage interface used here, so tests can pass a Map-backed one. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The stored credentials, or null when no key is stored. */
export function loadCredentials(storage: KeyValueStorage): Credentials | null {
  const apiKey = storage.getItem(API_KEY_STORAGE_KEY)?.trim();
  if (!apiKey) return null;
  const accountId = storage.getItem(ACCOUNT_ID_STORAGE_KEY)?.trim();
  return accountId ? { apiKey, accountId } : { apiKey };
}

/** Stores trimmed credentials; an empty account id removes a stored one. */
export function saveCredentials(storage: KeyValueStorage, credentials: Credentials): void {
  storage.setItem(API_KEY_STORAGE_KEY, credentials.apiKey.trim());
  const accountId = credentials.accountId?.trim();
  if (accountId) storage.setItem(ACCOUNT_ID_STORAGE_KEY, accountId);
  else storage.removeItem(ACCOUNT_ID_STORAGE_KEY);
}

/** Forgets the key and account id (sign-out). */
export function clearCredentials(storage: KeyValueStorage): void {
  storage.removeItem(API_KEY_STORAGE_KEY);
  storage.removeItem(ACCOUNT_ID_STORAGE_KEY);
}

/** HTTP headers of a GraphQL request made with these credentials. */
export function authHeaders(credentials: Credentials): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${credentials.apiKey}` };
  if (credentials.accountId) headers['x-lookout-account'] = credentials.accountId;
  return headers;
}

/** graphql-ws connection_init payload (the socket's only way to authenticate). */
export function connectionParams(credentials: Credentials): Record<string, string> {
  const params: Record<string, string> = { authorization: `Bearer ${credentials.apiKey}` };
  if (credentials.accountId) params.accountId = credentials.accountId;
  return params;
}
