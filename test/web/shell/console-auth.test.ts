import { describe, expect, it } from 'vitest';
import { consoleHeaders, consoleSocketParams } from '../../../web/src/shell/console-auth.js';
import { readSession } from '../../../web/src/shell/console-session.js';
import { refusalText } from '../../../web/src/shared/refusal-text.js';

describe('how the console authenticates its requests', () => {
  it('sends a session\'s CSRF token, account and the console marker, never a key', () => {
    expect(consoleHeaders({ kind: 'session', csrfToken: 't1', accountId: 'acc' })).toEqual({ 'x-lookout-csrf': 't1', 'x-lookout-account': 'acc', 'x-lookout-via': 'console' });
    expect(consoleSocketParams({ kind: 'session', csrfToken: 't1', accountId: 'acc' })).toEqual({ csrfToken: 't1', accountId: 'acc' });
  });

  it('sends a key as before, marked as the console', () => {
    expect(consoleHeaders({ kind: 'key', credentials: { apiKey: 'lo_1', accountId: 'acc' } })).toEqual({ authorization: 'Bearer lo_1', 'x-lookout-account': 'acc', 'x-lookout-via': 'console' });
  });

  it('reads a session answer, and nothing else as one', () => {
    const body = { user: { id: 'u', name: 'Ada', email: 'a@x', totpEnabled: true }, accounts: [{ id: 'acc', name: 'Shop', role: 'ADMIN' }, { id: 'bad', role: 'KING' }], accountId: 'acc', role: 'ADMIN', csrfToken: 't' };
    expect(readSession(body)).toEqual({ ...body, accounts: [{ id: 'acc', name: 'Shop', role: 'ADMIN' }] });
    expect(readSession({ statusCode: 401 })).toBeNull();
    expect(readSession(null)).toBeNull();
  });

  it('says refusals in words by their code, else the server\'s message, else the status', () => {
    expect(refusalText({ status: 403, code: 'ROLE_FORBIDS', message: 'x' })).toContain('Your role');
    expect(refusalText({ status: 401, code: 'TOTP_INVALID', message: '' })).toContain('not accepted');
    expect(refusalText({ status: 400, code: null, message: 'body/email must match format "email"' }, 'Could not invite')).toBe('Could not invite: body/email must match format "email"');
    expect(refusalText({ status: 429, code: null, message: 'Rate limit exceeded' })).toContain('Too many attempts');
    expect(refusalText({ status: 0, code: 'NETWORK', message: '' })).toContain('could not be reached');
  });
});
