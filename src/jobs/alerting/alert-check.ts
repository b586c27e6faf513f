import { mergeAlertChannelSettings, type AlertChannelSettings } from '../../domain/alert-channel-settings.js';
import { alertProfile, type AlertProfile } from '../../domain/alert-profile.js';
import type { CheckRow } from '../../store/checks-repository.js';
import type { Repositories } from '../../store/repositories.js';

/** A check with everything alerting needs about it: its row and its effective alert settings. */
export interface AlertCheck {
  accountId: string;
  row: CheckRow;
  profile: AlertProfile;
}

/** An alert channel a check's alerts may go to, with its merged settings. */
export interface ChannelChoice {
  id: number;
  type: string;
  settings: AlertChannelSettings;
}

/** The check, its group's and its account's settings combined (alertProfile); null when the check is gone. */
export async function loadAlertCheck(repos: Repositories, accountId: string, checkId: string): Promise<AlertCheck | null> {
  const row = await repos.checks.get(accountId, checkId);
  if (!row) return null;
  const group = row.group_id === null ? undefined : await repos.groups.get(accountId, row.group_id);
  const account = await repos.accounts.get(accountId);
  const profile = alertProfile(
    { checkType: row.check_type, name: row.name, data: row.data, subscriptions: row.subs.map((s) => ({ alertChannelId: s.alertChannelId, activated: s.activated })) },
    group ? { name: group.name, data: group.data, subscriptions: group.subs } : null,
    account?.alert_settings ?? null,
  );
  return { accountId, row, profile };
}

/** The account's channels among the profile's activated subscriptions (another account's never). */
export async function alertChannelsOf(repos: Repositories, accountId: string, profile: AlertProfile): Promise<ChannelChoice[]> {
  if (profile.channelIds.length === 0) return [];
  const { rows } = await repos.alertChannels.list(accountId, 1, profile.channelIds.length, profile.channelIds);
  return rows.map((r) => {
    const { config: _config, ...settings } = r.data;
    return { id: r.id, type: r.type, settings: mergeAlertChannelSettings(settings) };
  });
}
