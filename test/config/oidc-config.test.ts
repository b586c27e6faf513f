import { describe, expect, it } from 'vitest';
import { loadConfig, oidcSettings } from '../../src/config.js';

const A = '25db92e8-f382-41ff-8c92-0a7bb182fbd5';
const BASE = { LOOKOUT_OIDC_ISSUER: 'https://id.example.com/realms/main', LOOKOUT_OIDC_CLIENT_ID: 'lookout', LOOKOUT_OIDC_ROLE_MAP: `admins=${A}:ADMIN` };

describe('single sign-on settings', () => {
  it('are absent without LOOKOUT_OIDC_ISSUER: single sign-on is off', () => {
    expect(loadConfig({}).oidc).toBeNull();
  });

  it('default the name, scopes and roles claim; the secret is optional', () => {
    expect(oidcSettings(BASE)).toEqual({
      issuer: BASE.LOOKOUT_OIDC_ISSUER, clientId: 'lookout', clientSecret: null, name: 'single sign-on',
      scopes: ['openid', 'email', 'profile'], rolesClaim: 'lookout_roles',
      roleMap: { grants: [{ value: 'admins', accountId: A, role: 'ADMIN' }], accounts: [A] },
    });
  });

  it('take every setting, and always ask for openid', () => {
    expect(oidcSettings({
      ...BASE, LOOKOUT_OIDC_CLIENT_SECRET: 's3cret', LOOKOUT_OIDC_NAME: 'Keycloak', LOOKOUT_OIDC_SCOPES: 'email groups', LOOKOUT_OIDC_ROLES_CLAIM: 'groups',
    })).toMatchObject({ clientSecret: 's3cret', name: 'Keycloak', scopes: ['openid', 'email', 'groups'], rolesClaim: 'groups' });
  });

  it.each([
    [{ LOOKOUT_OIDC_CLIENT_ID: 'lookout' }, 'LOOKOUT_OIDC_CLIENT_ID needs LOOKOUT_OIDC_ISSUER'],
    [{ ...BASE, LOOKOUT_OIDC_ISSUER: 'not a url' }, "LOOKOUT_OIDC_ISSUER must be the provider's issuer URL"],
    [{ ...BASE, LOOKOUT_OIDC_ISSUER: 'ftp://id.example.com' }, 'LOOKOUT_OIDC_ISSUER must be an https (or http) URL'],
    [{ ...BASE, LOOKOUT_OIDC_CLIENT_ID: '' }, 'LOOKOUT_OIDC_ISSUER needs LOOKOUT_OIDC_CLIENT_ID'],
    [{ ...BASE, LOOKOUT_OIDC_ROLE_MAP: '' }, 'LOOKOUT_OIDC_ISSUER needs LOOKOUT_OIDC_ROLE_MAP'],
    [{ ...BASE, LOOKOUT_OIDC_ROLE_MAP: 'admins=acct:ADMIN' }, 'not an account id'],
  ])('refuse %o at start, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
