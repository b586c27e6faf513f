import Type from 'typebox';
import { AlertChannelId } from '../contract/alert-channel-schemas.js';
import { BulkSubscriptionsBody } from '../contract/bulk-subscriptions-body.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';
import { createTestAlertSender } from '../jobs/alerting/create-test-alert-sender.js';
import { bulkSubscribe } from '../service/bulk-subscribe.js';
import type { Api, ApiContext } from './api-context.js';
import { routeRateLimit } from './route-rate-limit.js';

const IdParams = Type.Object({ id: AlertChannelId });
const tags = ['Alert channels'];

/** `/v1/alert-channels/{id}/test` ("Send test") and `POST /v1/alert-channels/{id}/subscriptions` (many checks at once). */
export function alertChannelActionsRoutes(app: Api, { store, config }: ApiContext): void {
  const sender = createTestAlertSender({ store, logger: app.log, config });
  app.addHook('onClose', async () => sender.close());

  app.post('/v1/alert-channels/:id/test', {
    schema: {
      operationId: 'testAlertChannel', tags, summary: 'Send a test message through an alert channel',
      description: 'Delivers a message marked as a test ([TEST] title; IS_TEST in webhook templates) through the channel right away, '
        + 'not through the alert queue, and answers whether the receiver took it: ok, or a stable code and words saying why not '
        + '(the webhook\'s HTTP status, the SMTP refusal). Answers within twice LOOKOUT_ALERT_TIMEOUT_MS. Nothing is stored.',
      params: IdParams, response: responses({ 200: ref('AlertChannelTestAnswer') }),
    },
    // Each call sends a real message: a lower budget than the default.
    config: routeRateLimit(config, 30),
  }, async (req) => sender.send(req.principal.accountId, req.params.id));

  app.post('/v1/alert-channels/:id/subscriptions', {
    schema: {
      operationId: 'bulkSubscribeAlertChannel', tags, summary: 'Subscribe many checks (or all) and groups to an alert channel',
      description: 'checkIds (or all: true for every check of the account) and groupIds are subscribed at once, activated unless activated: false; '
        + 'existing subscriptions take the activated given. An id the account does not have is a 400 naming its key (checkIds.2), and nothing is written.',
      params: IdParams, body: BulkSubscriptionsBody, response: responses({ 200: ref('BulkSubscriptionsAnswer') }),
    },
  }, async (req) => bulkSubscribe(store, req.principal.accountId, req.params.id, req.body));
}
