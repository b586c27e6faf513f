import { alertText, type AlertMessage } from '../../domain/alert-message.js';
import { configurationFailure, type NotifierContext, type NotifyChannel, type NotifyResult } from './notifier.js';
import { jsonHeaders, sendHttp } from './send-http.js';

/** Longest text sent to a phone: a few SMS segments, or a short spoken message. */
const MAX_MESSAGE = 480;

/**
 * Posts `{to, message, type}` to the provider webhook of SMS_PROVIDER_URL or CALL_PROVIDER_URL
 * (a bridge to Twilio, MessageBird...), which sends the text or reads it out.
 */
export async function sendToPhoneProvider(
  type: 'SMS' | 'CALL', providerUrl: string | undefined, channel: NotifyChannel, alert: AlertMessage, ctx: NotifierContext,
): Promise<NotifyResult> {
  if (!providerUrl) {
    const variable = type === 'SMS' ? 'SMS_PROVIDER_URL' : 'CALL_PROVIDER_URL';
    return configurationFailure(`${variable} not configured: set it to the provider webhook that sends ${type === 'SMS' ? 'text messages' : 'voice calls'}`);
  }
  const message = (type === 'SMS' ? alertText(alert) : alert.title).slice(0, MAX_MESSAGE);
  return sendHttp({ url: providerUrl, headers: jsonHeaders(), body: JSON.stringify({ to: channel.config.number, message, type }) }, ctx);
}
