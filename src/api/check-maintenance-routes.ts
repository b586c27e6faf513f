import { CheckMaintenanceQuery, MAX_CHECK_MAINTENANCE_IDS } from '../contract/maintenance-window-schemas.js';
import { ref } from '../contract/response-shape.js';
import { responses } from '../contract/route-responses.js';
import { createCheckMaintenanceService } from '../service/check-maintenance-service.js';
import type { Api, ApiContext } from './api-context.js';
import { normaliseQueryArrays } from './query-arrays.js';

/** `GET /v1/check-maintenance`: which maintenance concerns each check now (Lookout's own route). */
export function checkMaintenanceRoutes(app: Api, { store }: ApiContext): void {
  const service = createCheckMaintenanceService({ store });
  app.get('/v1/check-maintenance', {
    schema: {
      operationId: 'listCheckMaintenance', tags: ['Maintenance windows'], summary: 'The maintenance of each check',
      description: `For each checkId (repeated or comma-separated, 1 to ${MAX_CHECK_MAINTENANCE_IDS}) of a check of the account, in the order given and each once: `
        + 'of the windows covering the check (one of its tags or silenceAlertsTags is the check\'s, or it silences every alert or pauses checks), '
        + 'the maintenance in progress ending last (`paused` when any in progress pauses the check), else the scheduled one starting soonest; null when none. '
        + 'Ids of no check of the account are left out.',
      querystring: CheckMaintenanceQuery, response: responses({ 200: ref('CheckMaintenanceStateList') }),
    },
    preValidation: normaliseQueryArrays(['checkId'], ['checkId']),
  }, async (req) => service.of(req.principal.accountId, req.query.checkId));
}
