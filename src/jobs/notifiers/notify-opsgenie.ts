import { alertSeverity, alertText, type AlertMessage } from '../../domain/alert-message.js';
import { configurationFailure, type Notifier } from './notifier.js';
import { jsonHeaders, sendHttp } from './send-http.js';

/** The alias of a check's Opsgenie alert: later alerts of the check update it, its recovery closes it. */
export function opsgenieAlias(alert: AlertMessage): string {
  return alert.alertType === 'ALERT_SSL' ? `lookout-${alert.checkId}-ssl` : `lookout-${alert.checkId}`;
}

/**
 * OPSGENIE: recoveries close the check's alert (`POST /v2/alerts/{alias}/close?identifierType=alias`),
 * other alerts create it (`POST /v2/alerts`, deduplicated by alias) with the channel's priority,
 * both authenticated with `GenieKey <apiKey>` against OPSGENIE_API_URL_US or _EU by region.
 */
export const notifyOpsgenie: Notifier = async (channel, alert, ctx) => {
  const { apiKey, region, priority } = channel.config;
  if (typeof apiKey !== 'string' || apiKey === '') return configurationFailure('the Opsgenie channel has no apiKey');
  const base = (region === 'EU' ? ctx.opsgenieApiUrls.EU : ctx.opsgenieApiUrls.US).replace(/\/+$/, '');
  const headers = jsonHeaders({ authorization: `GenieKey ${apiKey}` });
  const alias = opsgenieAlias(alert);
  if (alertSeverity(alert.alertType) === 'recovery') {
    return sendHttp({
      url: `${base}/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
      headers,
      body: JSON.stringify({ source: 'Lookout', note: alert.title }),
    }, ctx);
  }
  return sendHttp({
    url: `${base}/v2/alerts`,
    headers,
    body: JSON.stringify({
      message: alert.title.slice(0, 130),
      alias,
      description: alertText(alert).slice(0, 15000),
      priority: typeof priority === 'string' ? priority : 'P3',
      source: 'Lookout',
      entity: alert.checkName.slice(0, 512),
      tags: alert.tags.slice(0, 20),
      details: {
        alertType: alert.alertType, checkId: alert.checkId, checkType: alert.checkType,
        checkResultId: alert.checkResultId ?? '', runLocation: alert.runLocation ?? '',
        checkUrl: alert.checkUrl ?? '', resultUrl: alert.resultUrl ?? '',
      },
    }),
  }, ctx);
};
