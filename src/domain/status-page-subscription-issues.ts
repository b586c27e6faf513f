import type { Issue } from './lookout-error.js';

/** How a subscriber is told: a mail to an address, or a signed POST to a URL. */
export const SUBSCRIPTION_TYPES = ['EMAIL', 'WEBHOOK'] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

export const SUBSCRIPTION_STATUSES = ['PENDING', 'VERIFIED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/**
 * An address a mail server delivers to: a dot-atom local part (no quoting, spaces, angle brackets
 * or commas, which could smuggle in more recipients or headers) and a domain of two labels or more.
 */
const EMAIL = new RegExp(`^[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@${LABEL}(?:\\.${LABEL})+$`);

/** Why `config` is no address of a subscriber of `type`, or undefined when it is one. */
export function subscriptionAddressProblem(type: SubscriptionType, config: string): string | undefined {
  if (type === 'EMAIL') {
    const at = config.lastIndexOf('@');
    if (!EMAIL.test(config) || at > 64 || config.length > 254) return 'must be an email address such as ops@example.com';
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(config);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return 'must be an http or https URL';
  return undefined;
}

/** The form two addresses are compared in: an email lower-cased, a URL as the URL parser writes it. */
export function subscriptionAddressKey(type: SubscriptionType, config: string): string {
  return type === 'EMAIL' ? config.toLowerCase() : new URL(config).href;
}

/** One subscriber a bulk request asks for, told apart from the others by `key`. */
export interface DistinctSubscription {
  type: SubscriptionType;
  address: string;
  key: string;
}

/**
 * The subscribers a bulk request asks for, once each (an address sent twice, in any case, counts
 * once: the first spelling is kept), or the issues naming each `subscriptions.N.config` that is no
 * address of its type.
 */
export function distinctSubscriptions(entries: readonly { type: SubscriptionType; config: string }[]): { issues: Issue[]; subscriptions: DistinctSubscription[] } {
  const issues: Issue[] = [];
  const subscriptions: DistinctSubscription[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, n) => {
    const problem = subscriptionAddressProblem(entry.type, entry.config);
    if (problem) {
      issues.push({ key: `subscriptions.${n}.config`, message: `${problem} (type ${entry.type})` });
      return;
    }
    const key = subscriptionAddressKey(entry.type, entry.config);
    if (seen.has(`${entry.type} ${key}`)) return;
    seen.add(`${entry.type} ${key}`);
    subscriptions.push({ type: entry.type, address: entry.config, key });
  });
  return { issues, subscriptions: issues.length > 0 ? [] : subscriptions };
}
