import { describe, expect, it } from 'vitest';
import { BACKENDS, openTestStore } from '../support/backends.js';

describe.each(BACKENDS.map((b) => [b.name, b] as const))('single sign-on logins on %s', (_name, backend) => {
  it('are taken once (a replayed callback finds nothing), and expired ones not at all', async () => {
    const store = await openTestStore(backend);
    try {
      await store.ssoLogins.create({ stateHash: 'live', nonce: 'n', codeVerifier: 'v', returnTo: '/checks', expiresAt: new Date(Date.now() + 60_000) });
      await store.ssoLogins.create({ stateHash: 'old', nonce: 'n', codeVerifier: 'v', returnTo: '/', expiresAt: new Date(Date.now() - 1000) });
      expect(await store.ssoLogins.take('live')).toMatchObject({ nonce: 'n', code_verifier: 'v', return_to: '/checks' });
      expect(await store.ssoLogins.take('live')).toBeUndefined();
      expect(await store.ssoLogins.take('old')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
