/**
 * REST payloads of alerting and account configuration as the GraphQL layer receives them: alert
 * channels and notifications, account variables, snippets and private locations (codegen mappers).
 */

import type { AlertChannelSettings } from '../domain/alert-channel-settings.js';

/** A check or group subscribed to a channel, as the channel lists it. */
export interface RestChannelSubscription {
  id: number;
  checkId: string | null;
  groupId: number | null;
  activated: boolean;
}

/** An alert channel as `GET /v1/alert-channels/{id}` returns it; secret config fields masked or null. */
export interface RestAlertChannel extends AlertChannelSettings {
  id: number;
  type: string;
  config: Record<string, unknown>;
  subscriptions?: RestChannelSubscription[] | null;
  created_at: string;
  updated_at: string | null;
  [key: string]: unknown;
}

/** The `config` of a channel, read field by field by the config types. */
export type RestAlertChannelConfig = Record<string, unknown>;

/** A webhook header or query parameter as a channel's config holds it: a locked one's value reads back as null. */
export interface RestWebhookKeyValue {
  key: string;
  value?: string | null;
  locked?: boolean;
}

/** One delivery attempt of an alert to a channel (`GET /v1/alert-notifications`). */
export interface RestAlertNotification {
  id: string;
  checkAlertId: string;
  alertChannelId: number | null;
  type: string;
  alertType: string;
  checkId: string;
  checkType: string;
  checkResultId: string | null;
  status: string;
  attempt: number;
  error: string | null;
  responseStatus: number | null;
  notificationResult: string | null;
  timestamp: string | null;
  nextAttemptAt: string | null;
  created_at: string;
}

/** An account variable (`/v1/variables`); a secret's value reads back as null. */
export interface RestVariable {
  key: string;
  value: string | null;
  locked?: boolean;
  secret?: boolean;
  created_at?: string;
  updated_at?: string | null;
}

/** A snippet (`/v1/snippets`). */
export interface RestSnippet {
  id: number;
  name: string;
  script: string;
  created_at: string;
  updated_at: string | null;
}

/** A private location key as listed: masked; `rawKey` only in the answer that created it. */
export interface RestPrivateLocationKey {
  id: string;
  maskedKey: string;
  rawKey?: string;
  created_at: string;
  updated_at: string | null;
}

/** A private location (`/v1/private-locations`). */
export interface RestPrivateLocation {
  id: string;
  name: string;
  slugName: string;
  icon: string | null;
  proxyUrl: string | null;
  keys: RestPrivateLocationKey[];
  lastSeen: string | null;
  agentCount: number;
  created_at: string;
  updated_at: string | null;
}

/** What the private location key mutations return: the location is fetched only when asked for. */
export interface PrivateLocationKeyPayloadParent {
  key?: RestPrivateLocationKey | null;
  deletedKeyId?: string | null;
  /** REST id of the location, or null when the mutation wrote nothing. */
  privateLocationId: string | null;
  userErrors: { field: string | null; code: string; message: string }[];
}
