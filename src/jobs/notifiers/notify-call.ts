import type { Notifier } from './notifier.js';
import { sendToPhoneProvider } from './send-to-phone-provider.js';

/** CALL: a voice call to `config.number` reading the alert title, through the provider webhook of CALL_PROVIDER_URL. */
export const notifyCall: Notifier = (channel, alert, ctx) => sendToPhoneProvider('CALL', ctx.callProviderUrl, channel, alert, ctx);
