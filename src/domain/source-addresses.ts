import { isIP } from 'node:net';
import type { NetworkInterfaceInfo } from 'node:os';
import { LOCATIONS, type Location } from './catalog.js';

export type IpFamily = 'IPv4' | 'IPv6';

/** What `os.networkInterfaces()` answers: addresses per interface name. */
export type InterfaceTable = Record<string, NetworkInterfaceInfo[] | undefined>;

const FAMILY_VERSION: Record<IpFamily, 4 | 6> = { IPv4: 4, IPv6: 6 };

/** Link-local addresses never reach a monitored host, so they are never source addresses. */
function isLinkLocal(address: string, family: IpFamily): boolean {
  const a = address.toLowerCase();
  return family === 'IPv4' ? a.startsWith('169.254.') : /^fe[89ab][0-9a-f]:/.test(a);
}

/**
 * The addresses check runs leave from, for one IP family. Configured addresses win (behind NAT
 * only the operator knows the public ones); entries of the wrong family are dropped. Without
 * configuration: the machine's non-internal, non-link-local interface addresses, because every
 * check runs from this machine. Sorted and without duplicates, so the answer is stable.
 */
export function sourceAddresses(family: IpFamily, configured: readonly string[] | undefined, interfaces: InterfaceTable): string[] {
  const version = FAMILY_VERSION[family];
  const candidates = configured?.length
    ? configured.map((a) => a.trim())
    : Object.values(interfaces)
        .flatMap((list) => list ?? [])
        .filter((i) => !i.internal && i.family === family && !isLinkLocal(i.address, family))
        // An interface-scoped IPv6 address carries its zone (`%eth0`), which is no part of the address.
        .map((i) => i.address.split('%')[0]!);
  return [...new Set(candidates.filter((a) => isIP(a) === version))].sort();
}

/**
 * The same addresses keyed by every location: all locations run on this one machine, so each
 * region maps to the full list.
 */
export function addressesByRegion(addresses: readonly string[]): Record<Location, string[]> {
  return Object.fromEntries(LOCATIONS.map((region) => [region, [...addresses]])) as Record<Location, string[]>;
}
