// oidc-provider ships no types (they live in @types/oidc-provider, not installed): the little the
// test provider uses, declared here.
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: {
      clients?: Array<Record<string, unknown>>;
      claims?: Record<string, string[]>;
      cookies?: { keys: string[] };
      features?: Record<string, { enabled: boolean }>;
      ttl?: Record<string, number>;
      findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    });
    listen(port: number, host?: string): Server;
  }
}
