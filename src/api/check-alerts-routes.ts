import { createCheckAlertService } from '../service/check-alert-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { CheckAlertCheckParams, CheckAlertForCheckQuery, CheckAlertListQuery } from '../contract/alert-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';

const tags = ['Check alerts'];
const ALERTS = 'Alerts are failure, degradation and recovery alerts of the alert state machine, their reminders (isReminder) '
  + 'and SSL certificate alerts (ALERT_SSL). Alerts of muted checks are not raised. Filters: from/to (UNIX seconds, on created_at).';

/** `/v1/check-alerts`: the alerts checks raised. */
export function checkAlertsRoutes(app: Api, { store }: ApiContext): void {
  const alerts = createCheckAlertService({ store });

  app.get('/v1/check-alerts', {
    schema: {
      operationId: 'listCheckAlerts',
      tags,
      summary: 'List the alerts of every check, newest first',
      description: `${ALERTS} Also checkId. Offset pagination; the total is in Content-Range.`,
      querystring: CheckAlertListQuery,
      response: responses({ 200: ref('CheckAlertList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10, ...filter } = req.query;
    const { items, total } = await alerts.list(req.principal.accountId, filter, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.get('/v1/check-alerts/:checkId', {
    schema: {
      operationId: 'listCheckAlertsOfCheck',
      tags,
      summary: 'List the alerts of one check, newest first',
      description: `${ALERTS} 404 when the account has no such check. Offset pagination; the total is in Content-Range.`,
      params: CheckAlertCheckParams,
      querystring: CheckAlertForCheckQuery,
      response: responses({ 200: ref('CheckAlertList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10, ...filter } = req.query;
    const { items, total } = await alerts.listForCheck(req.principal.accountId, req.params.checkId, filter, page, limit);
    return sendPage(reply, items, total, page, limit);
  });
}
