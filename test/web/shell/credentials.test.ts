import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_ID_STORAGE_KEY, API_KEY_STORAGE_KEY, authHeaders, clearCredentials, connectionParams, loadCredentials, saveCredentials, type KeyValueStorage,
} from '../../../web/src/shell/credentials.js';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial));
  return { entries, getItem: (k) => entries.get(k) ?? null, setItem: (k, v) => void entries.set(k, v), removeItem: (k) => void entries.delete(k) };
}

describe('the stored sign-in', () => {
  it('uses the keys GraphiQL shares with the console', () => {
    expect([API_KEY_STORAGE_KEY, ACCOUNT_ID_STORAGE_KEY]).toEqual(['lookout.apiKey', 'lookout.accountId']);
  });

  it.each<[string, Record<string, string>, ReturnType<typeof loadCredentials>]>([
    ['nothing stored', {}, null],
    ['a blank key', { 'lookout.apiKey': '  ' }, null],
    ['a key alone', { 'lookout.apiKey': 'lk_1' }, { apiKey: 'lk_1' }],
    ['a key and an account id', { 'lookout.apiKey': ' lk_1 ', 'lookout.accountId': ' acc ' }, { apiKey: 'lk_1', accountId: 'acc' }],
  ])('reads %s', (_name, stored, expected) => {
    expect(loadCredentials(memoryStorage(stored))).toEqual(expected);
  });

  it('saves trimmed credentials, removes an emptied account id, and forgets both on sign-out', () => {
    const storage = memoryStorage({ 'lookout.accountId': 'old' });
    saveCredentials(storage, { apiKey: ' lk_2 ', accountId: ' ' });
    expect(Object.fromEntries(storage.entries)).toEqual({ 'lookout.apiKey': 'lk_2' });
    saveCredentials(storage, { apiKey: 'lk_2', accountId: 'acc' });
    expect(Object.fromEntries(storage.entries)).toEqual({ 'lookout.apiKey': 'lk_2', 'lookout.accountId': 'acc' });
    clearCredentials(storage);
    expect(storage.entries.size).toBe(0);
  });

  it('sends the key as a bearer token, the account in X-Lookout-Account over HTTP and accountId over graphql-ws', () => {
    expect(authHeaders({ apiKey: 'k' })).toEqual({ authorization: 'Bearer k' });
    expect(authHeaders({ apiKey: 'k', accountId: 'a' })).toEqual({ authorization: 'Bearer k', 'x-lookout-account': 'a' });
    expect(connectionParams({ apiKey: 'k', accountId: 'a' })).toEqual({ authorization: 'Bearer k', accountId: 'a' });
  });
});
