import { secretValuesOf, withSecrets } from '../../domain/alert-channel-secrets.js';
import type { AlertMessage } from '../../domain/alert-message.js';
import type { AlertChannelType } from '../../domain/catalog.js';
import { createScrubber, scrubDeep, secretValues, type Scrubber } from '../../domain/scrub-secrets.js';
import type { AlertChannelWithSecrets } from '../../store/alert-channels-repository.js';
import type { Store } from '../../store/create-store.js';
import { configurationFailure, type NotifierContext, type NotifyResult } from '../notifiers/notifier.js';
import { NOTIFIERS } from '../notifiers/notifiers.js';

/**
 * One attempt through the channel's notifier, with the channel's full config (alert deliveries and
 * "Send test" alike). What comes back is stored, published, answered and logged: the channel's
 * secrets and the secret variables a webhook template may use are scrubbed from it (a receiver may
 * echo a header in its answer). Never throws.
 */
export async function deliverToChannel(
  store: Store, accountId: string, channel: AlertChannelWithSecrets, alert: AlertMessage, context: Omit<NotifierContext, 'variables'>,
): Promise<NotifyResult> {
  const type = channel.type as AlertChannelType;
  const notifier = NOTIFIERS[type];
  if (!notifier) return configurationFailure(`alert channels of type ${channel.type} cannot be delivered`);
  const config = withSecrets(type, channel.data.config, channel.secrets);
  let scrub: Scrubber = (text) => text;
  try {
    const rows = type === 'WEBHOOK' ? await store.runner.accountVariables(accountId) : [];
    scrub = createScrubber([...secretValuesOf(type, config), ...secretValues(rows)]);
    const variables = Object.fromEntries(rows.map((v) => [v.key, v.value]));
    return scrubDeep(await notifier({ id: channel.id, type, config }, alert, { ...context, variables }), scrub);
  } catch (err) {
    return { ok: false, code: 'DELIVERY_FAILED', error: scrub(`delivery failed: ${err instanceof Error ? err.message : String(err)}`) };
  }
}
