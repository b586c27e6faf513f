import { createAlertNotificationService } from '../service/alert-notification-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { AlertNotificationListQuery } from '../contract/alert-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Alert notifications'];

/** `/v1/alert-notifications`: every delivery attempt of every alert of the account. */
export function alertNotificationsRoutes(app: Api, { store }: ApiContext): void {
  const notifications = createAlertNotificationService({ store });

  app.get('/v1/alert-notifications', {
    schema: {
      operationId: 'listAlertNotifications',
      tags,
      summary: 'List alert notifications (delivery attempts), newest first',
      description: 'One entry per attempt to deliver an alert to a channel: a failed delivery that is retried shows as a FAILED '
        + 'attempt followed by a PENDING one (then SENT or FAILED). Filters: from/to (UNIX seconds, on created_at), alertChannelId, '
        + 'checkId, status, hasFailures. Offset pagination; the total is in Content-Range.',
      querystring: AlertNotificationListQuery,
      response: responses({ 200: ref('AlertNotificationList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10, ...filter } = req.query;
    const { items, total } = await notifications.list(req.principal.accountId, filter, page, limit);
    return sendPage(reply, items, total, page, limit);
  });
}
