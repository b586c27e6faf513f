import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isPrivateAddress } from '../domain/is-private-address.js';

/** The error a connection refused by the guard fails with; `code` names the reason class. */
export class RefusedTargetError extends Error {
  readonly code = 'REFUSED_TARGET';
}

/** Options of createGuardedAgent. */
export interface GuardedAgentOptions {
  /** LOOKOUT_ALLOW_PRIVATE_TARGETS: connect to private addresses too (the guard then only times out). */
  allowPrivateTargets: boolean;
  /** Connect timeout, in ms. */
  connectTimeoutMs: number;
}

const refusal = (address: string) => new RefusedTargetError(`${address} is a private, loopback or link-local address`);

/** dns.lookup that fails when any address the name resolves to is private: checked at connect time, so a rebinding name cannot slip through. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(refusal(refused.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * The undici dispatcher of requests made on a subscriber's behalf (webhook confirmations and
 * deliveries): unless private targets are allowed, it refuses to connect to loopback, link-local
 * and private addresses, whether written as IP literals or resolved from a name.
 */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  if (options.allowPrivateTargets) return new Agent({ connect: { timeout: options.connectTimeoutMs } });
  const connect = buildConnector({ timeout: options.connectTimeoutMs, lookup: guardedLookup });
  return new Agent({
    connect: (opts, callback) => {
      const host = opts.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host) && isPrivateAddress(host)) {
        callback(refusal(host), null);
        return;
      }
      connect(opts, callback);
    },
  });
}
