import { Agent } from 'undici';
import type { Config } from '../../config.js';
import type { DeliveryErrorCode } from '../../domain/delivery-error-code.js';
import { notFound } from '../../domain/lookout-error.js';
import { testAlertMessage } from '../../domain/test-alert-message.js';
import type { Store } from '../../store/create-store.js';
import type { NotifierContext, NotifyResult } from '../notifiers/notifier.js';
import { deliverToChannel } from './deliver-to-channel.js';

/** What "Send test" needs: the store, a logger and the alerting settings of the configuration. */
export interface TestAlertSenderOptions {
  store: Store;
  logger: { info(details: object, message: string): void; warn(details: object, message: string): void };
  config: Pick<Config, 'publicUrl' | 'smtpUrl' | 'smtpFrom' | 'pagerDutyEventsUrl' | 'opsgenieApiUrlUs' | 'opsgenieApiUrlEu' | 'smsProviderUrl' | 'callProviderUrl' | 'alertTimeoutMs'>;
}

/** How a test message went: delivered, or why not (a stable code and words saying it). */
export interface TestAlertOutcome {
  ok: boolean;
  /** Null when delivered. */
  code: DeliveryErrorCode | null;
  /** For people: what happened, the receiver's refusal included. */
  message: string;
  /** HTTP status (SMTP reply code) the receiver answered, when it answered. */
  status: number | null;
  /** The start of the receiver's answer (secrets scrubbed). */
  response: string | null;
}

/** A delivery slower than this many delivery time limits is answered as TIMEOUT (an SMTP exchange has several timed steps). */
const BOUND_FACTOR = 2;

function toOutcome(result: NotifyResult): TestAlertOutcome {
  const status = result.status ?? null;
  const response = result.response ? result.response.slice(0, 1000) : null;
  if (result.ok) return { ok: true, code: null, message: `Test message delivered${status !== null ? ` (the receiver answered ${status})` : ''}.`, status, response };
  const code = result.code ?? (status !== null ? 'RECEIVER_REJECTED' : 'DELIVERY_FAILED');
  return { ok: false, code, message: `Test message not delivered: ${result.error ?? 'delivery failed'}`, status, response };
}

/**
 * "Send test": delivers a test message through a channel's notifier right away (not through the
 * outbox: the caller waits for the answer), within twice LOOKOUT_ALERT_TIMEOUT_MS. Nothing is
 * stored. close() closes its HTTP connections.
 */
export function createTestAlertSender({ store, logger, config }: TestAlertSenderOptions) {
  const timeoutMs = config.alertTimeoutMs;
  const dispatcher = new Agent({ connect: { timeout: timeoutMs } });
  const context: Omit<NotifierContext, 'variables'> = {
    timeoutMs,
    dispatcher,
    smtpUrl: config.smtpUrl,
    smtpFrom: config.smtpFrom,
    pagerDutyEventsUrl: config.pagerDutyEventsUrl,
    opsgenieApiUrls: { US: config.opsgenieApiUrlUs, EU: config.opsgenieApiUrlEu },
    smsProviderUrl: config.smsProviderUrl,
    callProviderUrl: config.callProviderUrl,
  };

  return {
    /** Sends the test message through channel `channelId` of the account; NOT_FOUND when it has no such channel. */
    async send(accountId: string, channelId: number): Promise<TestAlertOutcome> {
      const channel = await store.alertChannels.getWithSecrets(accountId, channelId);
      if (!channel) throw notFound('Alert channel', channelId);
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<NotifyResult>((resolve) => {
        timer = setTimeout(() => resolve({ ok: false, code: 'TIMEOUT', error: `no answer within ${timeoutMs * BOUND_FACTOR} ms` }), timeoutMs * BOUND_FACTOR);
      });
      const message = testAlertMessage(channelId, config.publicUrl, new Date());
      const result = await Promise.race([deliverToChannel(store, accountId, channel, message, context), bound]).finally(() => clearTimeout(timer));
      const outcome = toOutcome(result);
      const who = { accountId, channelId, channelType: channel.type, status: outcome.status };
      // The outcome's words are scrubbed of the channel's secrets (deliverToChannel); its config is never logged.
      if (outcome.ok) logger.info(who, 'test alert sent');
      else logger.warn({ ...who, code: outcome.code, error: outcome.message }, 'test alert failed');
      return outcome;
    },
    close: () => dispatcher.close(),
  };
}
/** The running "Send test" of one process. */
export type TestAlertSender = ReturnType<typeof createTestAlertSender>;
