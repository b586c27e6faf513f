import { request, type Dispatcher } from 'undici';
import type { DeliveryFailure } from '../../domain/delivery-retry.js';
import {
  notificationEvent, notificationMail, notificationWebhookBody, type NotificationLinks,
} from '../../domain/subscriber-notification-messages.js';
import { SIGNATURE_HEADERS, webhookSignature } from '../../domain/webhook-signature.js';
import { webhookFailureReason } from '../../domain/webhook-failure-reason.js';
import type { SendMails } from '../../service/status-page-subscription-mailer.js';
import type { ClaimedSubscriberDelivery } from '../../store/subscriber-deliveries-repository.js';

/** How one attempt went; a failure says whether trying again may help (see isRetryableFailure). */
export type SendOutcome = { ok: true; status?: number } | ({ ok: false; error: string } & DeliveryFailure);

/** Sends the message of one claimed delivery; never throws. */
export type SendSubscriberMessage = (delivery: ClaimedSubscriberDelivery) => Promise<SendOutcome>;

export interface SubscriberMessageSenderOptions {
  /** Base URL of the links messages carry (LOOKOUT_PUBLIC_URL). */
  publicUrl: string;
  /** A fresh unsubscribe link for a message to the subscriber; throws when the subscriber is gone. */
  unsubscribeUrl(accountId: string, subscriptionId: string): Promise<string>;
  /** Absent when no SMTP server is configured: EMAIL deliveries then fail for good. */
  sendMails?: SendMails;
  /** undici dispatcher of webhook POSTs; the global one when undefined. */
  dispatcher?: Dispatcher;
  /** Time limit of a webhook POST, in ms. */
  timeoutMs: number;
}

const gone = (): SendOutcome => ({ ok: false, error: 'the subscriber was removed (unsubscribed, or its status page deleted): nothing sent', retryable: false });

/**
 * Renders and sends subscriber messages: EMAIL through SendMails with an unsubscribe link and
 * List-Unsubscribe headers; WEBHOOK as a JSON POST signed like the confirmation (hex HMAC-SHA256 of
 * the body with the subscriber's secret in X-Lookout-Signature and X-Checkly-Signature), redirects
 * not followed. A subscriber removed since the fan-out gets nothing.
 */
export function createSubscriberMessageSender(options: SubscriberMessageSenderOptions): SendSubscriberMessage {
  const base = options.publicUrl.replace(/\/+$/, '');
  const { timeoutMs } = options;

  async function post(url: string, body: string, headers: Record<string, string>): Promise<SendOutcome> {
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('not http(s)');
    } catch {
      return { ok: false, error: 'invalid_url', retryable: false };
    }
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await request(target, {
        method: 'POST', body, headers, signal, dispatcher: options.dispatcher, headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
      });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true };
      // The status decides retrying only: what is stored and shown is the class (see webhookFailureReason).
      return { ok: false, status: res.statusCode, error: 'http_error' };
    } catch (err) {
      const reason = webhookFailureReason(err, signal.aborted);
      // A refused target stays refused: trying again cannot help.
      return reason === 'refused_target' ? { ok: false, error: reason, retryable: false } : { ok: false, error: reason };
    }
  }

  return async (d) => {
    if (!d.subscription_id || d.page_url === null || d.page_name === null) return gone();
    let unsubscribeUrl: string;
    try {
      unsubscribeUrl = await options.unsubscribeUrl(d.account_id, d.subscription_id);
    } catch {
      return gone();
    }
    const page = { id: d.status_page_id, name: d.page_name, url: d.page_url };
    const pageBase = `${base}/status/${encodeURIComponent(d.page_url)}`;
    const links: NotificationLinks = {
      detailUrl: d.facts.subjectType === 'INCIDENT' ? `${pageBase}/incidents/${d.facts.incident.id}` : `${pageBase}/maintenances/${d.facts.maintenance.id}`,
      unsubscribeUrl,
    };
    if (d.channel === 'EMAIL') {
      if (!options.sendMails) return { ok: false, error: 'SMTP_URL not configured: mails cannot be sent', retryable: false };
      try {
        const [outcome] = await options.sendMails([notificationMail(d.address, page, d.facts, links)]);
        return outcome ?? { ok: false, error: 'the mailer gave no outcome' };
      } catch (err) {
        return { ok: false, error: `sending mail failed: ${err instanceof Error ? err.message : String(err)}` };
      }
    }
    const body = notificationWebhookBody({ notificationId: d.notification_id, subscriptionId: d.subscription_id }, page, d.facts, links);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Lookout status page', 'x-lookout-event': notificationEvent(d.facts) };
    if (d.webhook_secret) {
      const signature = webhookSignature(d.webhook_secret, body);
      for (const name of SIGNATURE_HEADERS) headers[name] = signature;
    }
    return post(d.address, body, headers);
  };
}
