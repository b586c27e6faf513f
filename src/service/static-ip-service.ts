import { networkInterfaces } from 'node:os';
import { addressesByRegion, sourceAddresses, type InterfaceTable, type IpFamily } from '../domain/source-addresses.js';

/** Where source addresses come from: configuration first, the machine's interfaces otherwise. */
export interface StaticIpServiceOptions {
  staticIps: string[] | undefined;
  staticIpv6s: string[] | undefined;
  /** Reads the interface table (tests pass a fixed one). */
  interfaces?: () => InterfaceTable;
}

/**
 * The source addresses of check runs. Interfaces are read on every call, so an address the
 * machine gains or loses shows up without a restart.
 */
export function createStaticIpService({ staticIps, staticIpv6s, interfaces = networkInterfaces }: StaticIpServiceOptions) {
  const list = (family: IpFamily) => sourceAddresses(family, family === 'IPv4' ? staticIps : staticIpv6s, interfaces());
  return {
    list,
    byRegion: (family: IpFamily) => addressesByRegion(list(family)),
    /** One address per line with a trailing newline (an empty body when there are none). */
    text: (family: IpFamily) => list(family).map((a) => `${a}\n`).join(''),
  };
}
export type StaticIpService = ReturnType<typeof createStaticIpService>;
