/** An alert channel subscription as a body sends it (`activated` may be left out or null). */
export interface SubscriptionSent {
  alertChannelId: number;
  activated?: boolean | null;
}

/**
 * Subscriptions of an update with `activated` filled in: left out or null, it keeps the stored
 * subscription's of the same channel (a deactivated one stays deactivated when a client that
 * drops `false` sends it back), else true.
 */
export function keepActivated(sent: SubscriptionSent[], stored: readonly { alertChannelId: number; activated: boolean }[]): { alertChannelId: number; activated: boolean }[] {
  const before = new Map(stored.map((s) => [s.alertChannelId, s.activated]));
  return sent.map((s) => ({ alertChannelId: s.alertChannelId, activated: s.activated ?? before.get(s.alertChannelId) ?? true }));
}
