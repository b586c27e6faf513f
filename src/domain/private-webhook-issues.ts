import { isPrivateAddress } from './is-private-address.js';
import type { Issue } from './lookout-error.js';
import type { SubscriptionType } from './status-page-subscription-issues.js';

/**
 * The issues naming each `subscriptions.N.config` that is a WEBHOOK URL whose host is written as a
 * private, loopback or link-local address (or `localhost`): refused up front when private targets
 * are not allowed. Names resolving to such addresses are refused when connecting instead.
 */
export function privateWebhookIssues(entries: readonly { type: SubscriptionType; config: string }[]): Issue[] {
  const issues: Issue[] = [];
  entries.forEach((entry, n) => {
    if (entry.type !== 'WEBHOOK') return;
    let host: string;
    try {
      host = new URL(entry.config).hostname.toLowerCase();
    } catch {
      return;
    }
    if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
      issues.push({
        key: `subscriptions.${n}.config`,
        message: `${host} is a private, loopback or link-local address: webhooks must reach a public address (the operator may allow private ones with LOOKOUT_ALLOW_PRIVATE_TARGETS=true)`,
      });
    }
  });
  return issues;
}
