import { joinLockedValues, keepLockedValues, LOCKABLE_LISTS, splitLockedValues } from './alert-channel-locked-entries.js';
import type { AlertChannelType } from './catalog.js';

/** Config fields of each channel type that are secrets: stored apart from the config, never read back. */
export const SECRET_CONFIG_FIELDS: Record<AlertChannelType, readonly string[]> = {
  EMAIL: [],
  SLACK: [],
  SLACK_APP: [],
  SMS: [],
  CALL: [],
  WEBHOOK: ['webhookSecret'],
  OPSGENIE: ['apiKey'],
  PAGERDUTY: ['serviceKey'],
};

/**
 * Provider keys read back masked so a user can tell which key is set; a webhook secret reads back
 * as null, because even its tail would help someone forge signatures.
 */
const SHOWN_MASKED = new Set(['apiKey', 'serviceKey']);
const MASK = '********';

/** `********` plus the last 4 characters; a short key is masked whole, its tail would be most of it. */
export function maskSecret(value: string): string {
  return value.length >= 8 ? MASK + value.slice(-4) : MASK;
}

/**
 * Splits an accepted config into the public part (stored in `data.config`) and its secrets: the
 * secret fields, and the values of locked entries (see alert-channel-locked-entries), which the
 * public part keeps as null.
 */
export function splitSecrets(type: AlertChannelType, config: Record<string, any>): { config: Record<string, any>; secrets: Record<string, string> } {
  const { config: pub, values } = splitLockedValues(type, config);
  const secrets: Record<string, string> = { ...values };
  for (const field of SECRET_CONFIG_FIELDS[type]) {
    const value = pub[field];
    if (typeof value === 'string' && value !== '') secrets[field] = value;
    delete pub[field];
  }
  return { config: pub, secrets };
}

/** The full config a channel was accepted with, from its stored public part and secrets: what deliveries use. */
export function withSecrets(type: AlertChannelType, config: Record<string, any>, secrets: Record<string, string>): Record<string, any> {
  const out = joinLockedValues(type, config, secrets);
  for (const field of SECRET_CONFIG_FIELDS[type]) {
    if (typeof secrets[field] === 'string') out[field] = secrets[field];
  }
  return out;
}

/** The secret values in a full config (secret fields and locked entries), to keep them out of what is logged or stored. */
export function secretValuesOf(type: AlertChannelType, config: Record<string, any>): string[] {
  const values = SECRET_CONFIG_FIELDS[type].map((field) => config[field]);
  for (const list of LOCKABLE_LISTS[type] ?? []) {
    const entries: unknown = config[list];
    if (Array.isArray(entries)) values.push(...entries.filter((e) => e?.locked === true).map((e) => e.value));
  }
  return values.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** What each secret field of `type` reads back as, given the stored secrets. */
export function maskedSecrets(type: AlertChannelType, secrets: Record<string, string>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const field of SECRET_CONFIG_FIELDS[type]) {
    const value = secrets[field];
    out[field] = typeof value === 'string' && SHOWN_MASKED.has(field) ? maskSecret(value) : null;
  }
  return out;
}

/**
 * The config an update means, secrets resolved against the stored ones: a secret field left out,
 * sent as null (it reads back so) or sent back in its masked form keeps the stored value; any other
 * value is taken as sent, so a new value replaces the secret and "" clears an optional one. Locked entries
 * sent without a value keep theirs (keepLockedValues), looked up in `storedConfig` and `stored`.
 */
export function resolveSecretsOnUpdate(
  type: AlertChannelType,
  incoming: Record<string, any>,
  stored: Record<string, string>,
  storedConfig: Record<string, any> = {},
): Record<string, any> {
  const out = keepLockedValues(type, incoming, joinLockedValues(type, storedConfig, stored));
  for (const field of SECRET_CONFIG_FIELDS[type]) {
    const current = stored[field];
    const sentMasked = current !== undefined && SHOWN_MASKED.has(field) && incoming[field] === maskSecret(current);
    if (incoming[field] == null || sentMasked) {
      if (current !== undefined) out[field] = current;
      else delete out[field];
    }
  }
  return out;
}
