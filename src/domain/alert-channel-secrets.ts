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

/** Splits an accepted config into the public part (stored in `data.config`) and its secrets. */
export function splitSecrets(type: AlertChannelType, config: Record<string, any>): { config: Record<string, any>; secrets: Record<string, string> } {
  const pub = { ...config };
  const secrets: Record<string, string> = {};
  for (const field of SECRET_CONFIG_FIELDS[type]) {
    const value = pub[field];
    if (typeof value === 'string' && value !== '') secrets[field] = value;
    delete pub[field];
  }
  return { config: pub, secrets };
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
 * or sent back in its masked form, keeps the stored value; any other value (null included) is taken
 * as sent, so a new value replaces the secret and null clears an optional one.
 */
export function resolveSecretsOnUpdate(
  type: AlertChannelType,
  incoming: Record<string, any>,
  stored: Record<string, string>,
): Record<string, any> {
  const out = { ...incoming };
  for (const field of SECRET_CONFIG_FIELDS[type]) {
    const current = stored[field];
    const sentMasked = current !== undefined && SHOWN_MASKED.has(field) && incoming[field] === maskSecret(current);
    if (!(field in incoming) || sentMasked) {
      if (current !== undefined) out[field] = current;
      else delete out[field];
    }
  }
  return out;
}
