/** The notification settings of an alert channel (everything but its type and config). */
export interface AlertChannelSettings {
  sendRecovery: boolean;
  sendFailure: boolean;
  sendDegraded: boolean;
  sslExpiry: boolean;
  sslExpiryThreshold: number;
  autoSubscribe: boolean;
}

/** Defaults of service-api.md (sslExpiry, sslExpiryThreshold, autoSubscribe) and of existing clients (the rest). */
export const ALERT_CHANNEL_DEFAULTS: Readonly<AlertChannelSettings> = {
  sendRecovery: true,
  sendFailure: true,
  sendDegraded: false,
  sslExpiry: false,
  sslExpiryThreshold: 30,
  autoSubscribe: false,
};

const KEYS = Object.keys(ALERT_CHANNEL_DEFAULTS) as (keyof AlertChannelSettings)[];

/**
 * Settings from a body merged over `base` (the stored settings on update, the defaults on create).
 * An explicit null counts as "not given": existing clients send null for every unset field.
 */
export function mergeAlertChannelSettings(
  given: Partial<Record<keyof AlertChannelSettings, unknown>>,
  base: AlertChannelSettings = ALERT_CHANNEL_DEFAULTS,
): AlertChannelSettings {
  const out = { ...ALERT_CHANNEL_DEFAULTS, ...pick(base) };
  for (const key of KEYS) {
    const value = given[key];
    if (value !== undefined && value !== null) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

function pick(s: Partial<AlertChannelSettings>): Partial<AlertChannelSettings> {
  const out: Partial<AlertChannelSettings> = {};
  for (const key of KEYS) if (s[key] !== undefined && s[key] !== null) (out as Record<string, unknown>)[key] = s[key];
  return out;
}
