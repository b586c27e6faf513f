import type { AlertChannelType } from './catalog.js';
import { list, value, type Shape } from './merge-update.js';

/**
 * Webhook header and query-parameter entries. `value` has no default: a locked entry without one
 * keeps the stored value of its key (alert-channel-locked-entries.ts), an unlocked one needs it.
 */
const LOCKABLE_ENTRY: Shape = { key: value(), value: value(), locked: value(false) };

/**
 * The `config` fields of each alert channel type with their defaults and update rules (see
 * merge-update.ts): a config sent on update merges over the stored one key by key, so fields
 * left out keep their values. Secret fields have no default: left out, they keep the stored secret.
 */
export const ALERT_CHANNEL_CONFIG_SHAPES: Readonly<Record<AlertChannelType, Shape>> = {
  EMAIL: { address: value() },
  SLACK: { url: value(), channel: value(null) },
  SLACK_APP: { channel: value(null), slackChannels: value(null), url: value(null) },
  WEBHOOK: {
    name: value(), url: value(), method: value('POST'), template: value(null), headers: list(LOCKABLE_ENTRY), queryParameters: list(LOCKABLE_ENTRY),
    webhookSecret: value(), webhookType: value(null),
  },
  SMS: { name: value(), number: value() },
  CALL: { name: value(), number: value() },
  PAGERDUTY: { account: value(null), serviceName: value(null), serviceKey: value() },
  OPSGENIE: { name: value(), apiKey: value(), region: value(), priority: value() },
};
