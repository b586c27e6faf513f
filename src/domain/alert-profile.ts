import type { EscalationSettings } from './alert-state.js';
import { applyGroupSettings, type Subscription } from './apply-group-settings.js';
import { withAlertSettingsDefaults, type CheckData } from './check-defaults.js';
import { withGroupDefaults } from './group-defaults.js';

/** A stored check as alerting reads it. */
export interface AlertingCheck {
  checkType: string;
  name: string;
  data: Record<string, any>;
  /** The check's own channel subscriptions. */
  subscriptions: Subscription[];
}

/** A stored group as alerting reads it. */
export interface AlertingGroup {
  name: string;
  data: Record<string, any>;
  subscriptions: Subscription[];
}

/** Everything alerting needs to know about a check, with its group's settings applied. */
export interface AlertProfile {
  settings: EscalationSettings;
  muted: boolean;
  runParallel: boolean;
  /** Public and private locations a run covers: a parallel run reports once from each. */
  locations: string[];
  /** Activated subscriptions only. */
  channelIds: number[];
  groupName: string | null;
  tags: string[];
  /** The domain whose certificate is watched instead of the target's; null: the target's. */
  sslCheckDomain: string | null;
}

/**
 * The alerting of a check as it runs: the group decides alert settings, useGlobalAlertSettings,
 * subscriptions and runParallel (applyGroupSettings); a check or group muted is muted. With
 * useGlobalAlertSettings the account's alert settings apply, otherwise the check's (or the
 * group's); either way completed with the defaults of conventions.md.
 */
export function alertProfile(check: AlertingCheck, group: AlertingGroup | null, accountAlertSettings: Record<string, any> | null): AlertProfile {
  const base: CheckData & { checkType: string } = { ...check.data, name: check.name, checkType: check.checkType };
  const c: Record<string, any> = group ? applyGroupSettings(base, withGroupDefaults({ ...group.data, name: group.name }), group.subscriptions) : base;
  const subscriptions: Subscription[] = group ? c.alertChannelSubscriptions : check.subscriptions;
  const useGlobal = c.useGlobalAlertSettings !== false;
  const settings = withAlertSettingsDefaults(useGlobal ? accountAlertSettings : c.alertSettings) as EscalationSettings;
  const sslCheckDomain = typeof c.sslCheckDomain === 'string' && c.sslCheckDomain.trim() !== '' ? c.sslCheckDomain.trim() : null;
  return {
    settings,
    muted: c.muted === true,
    runParallel: c.runParallel === true,
    locations: [...new Set<string>([...(c.locations ?? []), ...(c.privateLocations ?? [])])],
    channelIds: subscriptions.filter((s) => s.activated).map((s) => s.alertChannelId),
    groupName: group?.name ?? null,
    tags: c.tags ?? [],
    sslCheckDomain,
  };
}
