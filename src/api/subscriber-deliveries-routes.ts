import { SubscriberDeliveryListQuery } from '../contract/subscriber-delivery-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';
import { createSubscriberDeliveryService } from '../service/subscriber-delivery-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';

const tags = ['Subscriber notifications'];
const DESCRIPTION = 'An incident update or a maintenance update posted with `notifySubscribers: true` (never an edit), and each '
  + 'maintenance reminder, is sent once to every VERIFIED subscriber of every status page of the account that shows an affected service '
  + '(an address subscribed to several of them gets one message): EMAIL as a mail with an unsubscribe link and List-Unsubscribe headers, '
  + 'WEBHOOK as a JSON POST signed like the confirmation (X-Lookout-Signature). Each attempt is one entry: a failed attempt that is '
  + 'retried shows as FAILED, followed by a PENDING one (then SENT or FAILED). Filters: incidentId, maintenanceId, statusPageId, '
  + 'subscriptionId, status; an id of another account matches nothing. Offset pagination; the total is in Content-Range.';

/** `/v1/status-pages/subscriber-deliveries`: every delivery attempt of the account's subscriber notifications. */
export function subscriberDeliveriesRoutes(app: Api, { store }: ApiContext): void {
  const deliveries = createSubscriberDeliveryService({ store });

  app.get('/v1/status-pages/subscriber-deliveries', {
    schema: {
      operationId: 'listSubscriberDeliveries',
      tags,
      summary: 'List deliveries of incident and maintenance notifications to status page subscribers, newest first',
      description: DESCRIPTION,
      querystring: SubscriberDeliveryListQuery,
      response: responses({ 200: ref('SubscriberDeliveryList') }),
    },
  }, async (req, reply) => {
    const { items, total, page, limit } = await deliveries.list(req.principal.accountId, req.query);
    return sendPage(reply, items, total, page, limit);
  });
}
