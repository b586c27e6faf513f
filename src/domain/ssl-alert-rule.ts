/** At most one ALERT_SSL per check and channel in this long, while the certificate stays under the threshold. */
export const SSL_ALERT_INTERVAL_MS = 24 * 60 * 60_000;

/** The certificate settings of an alert channel. */
export interface SslChannelSettings {
  sslExpiry: boolean;
  sslExpiryThreshold: number;
}

/**
 * Whether a channel is told about a certificate with `daysRemaining` days left: it asks for
 * certificate alerts (sslExpiry) and the days left are at or under its sslExpiryThreshold (an
 * expired certificate, with negative days, is too).
 */
export function sslAlertWanted(channel: SslChannelSettings, daysRemaining: number): boolean {
  return channel.sslExpiry && daysRemaining <= channel.sslExpiryThreshold;
}
