import type { Dispatcher } from 'undici';
import type { AlertMessage } from '../../domain/alert-message.js';
import type { AlertChannelType } from '../../domain/catalog.js';
import type { DeliveryErrorCode } from '../../domain/delivery-error-code.js';

/** A channel as a notifier sees it: its config with its secrets put back. */
export interface NotifyChannel {
  id: number;
  type: AlertChannelType;
  config: Record<string, any>;
}

/** How one delivery attempt went. Notifiers never throw: every failure is a result. */
export interface NotifyResult {
  ok: boolean;
  /** HTTP status the receiver answered (SMTP: the server's reply code). */
  status?: number;
  error?: string;
  /** The start of what the receiver answered, for troubleshooting. */
  response?: string;
  /** Why it failed, as a stable code (see DeliveryErrorCode); absent on success. */
  code?: DeliveryErrorCode;
  /** False when trying again cannot help (configuration missing); see isRetryableFailure. */
  retryable?: boolean;
}

/** Endpoints and limits of the installation (see README, alerting variables). */
export interface NotifierContext {
  /** The account's environment variables by key, for webhook templates. */
  variables: Record<string, string>;
  timeoutMs: number;
  /** undici dispatcher for every HTTP delivery; the global one when undefined. */
  dispatcher?: Dispatcher;
  smtpUrl?: string;
  smtpFrom: string;
  pagerDutyEventsUrl: string;
  opsgenieApiUrls: { US: string; EU: string };
  smsProviderUrl?: string;
  callProviderUrl?: string;
}

/** Delivers one alert to one channel of its type. */
export type Notifier = (channel: NotifyChannel, alert: AlertMessage, ctx: NotifierContext) => Promise<NotifyResult>;

/** A failure the same attempt cannot overcome by being repeated. */
export function configurationFailure(error: string): NotifyResult {
  return { ok: false, error, retryable: false, code: 'CHANNEL_NOT_CONFIGURED' };
}
