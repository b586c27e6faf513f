import { CHECK_TYPES, LOCATIONS, LOCATION_NAMES } from './catalog.js';

/** One entitlement as `checkly account plan` reads it. */
export interface Entitlement {
  key: string;
  name: string;
  description: string;
  type: 'metered' | 'flag';
  enabled: boolean;
}

const titleCase = (s: string) => s.toLowerCase().split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

/**
 * What an account may use. A self-hosted installation sells nothing: every check type it accepts is
 * an enabled flag, and nothing is metered (no quota applies, so no quantity is claimed). Locations
 * are all available and a check may name every one of them.
 */
export function accountEntitlements(): { entitlements: Entitlement[]; locations: { all: { id: string; name: string; available: boolean }[]; maxPerCheck: number } } {
  return {
    entitlements: CHECK_TYPES.map((type) => ({
      key: `${type}_CHECKS`,
      name: `${titleCase(type)} checks`,
      description: `Create, deploy and run ${type} checks (self-hosted: no plan limit)`,
      type: 'flag' as const,
      enabled: true,
    })),
    locations: { all: LOCATIONS.map((id) => ({ id, name: LOCATION_NAMES[id], available: true })), maxPerCheck: LOCATIONS.length },
  };
}
