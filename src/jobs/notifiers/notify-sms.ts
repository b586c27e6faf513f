import type { Notifier } from './notifier.js';
import { sendToPhoneProvider } from './send-to-phone-provider.js';

/** SMS: the alert's text to `config.number`, through the provider webhook of SMS_PROVIDER_URL. */
export const notifySms: Notifier = (channel, alert, ctx) => sendToPhoneProvider('SMS', ctx.smsProviderUrl, channel, alert, ctx);
