import { alertSeverity, alertText, type AlertMessage } from '../../domain/alert-message.js';
import { configurationFailure, type Notifier } from './notifier.js';
import { jsonHeaders, sendHttp } from './send-http.js';

/**
 * The incident key of a check: every alert of the check updates one PagerDuty incident, which
 * its recovery resolves. Certificate alerts have their own incident, which a recovery leaves open.
 */
export function pagerDutyDedupKey(alert: AlertMessage): string {
  return alert.alertType === 'ALERT_SSL' ? `lookout-${alert.checkId}-ssl` : `lookout-${alert.checkId}`;
}

const SEVERITY = { failure: 'critical', degraded: 'warning', ssl: 'warning', recovery: 'info' } as const;

/** The console links of an alert, as PagerDuty shows them on the incident. */
function pagerDutyLinks(alert: AlertMessage): { href: string; text: string }[] {
  return [
    { href: alert.checkUrl!, text: alert.isTest ? 'Alert channels in Lookout' : `${alert.checkName} in Lookout` },
    ...(alert.resultUrl ? [{ href: alert.resultUrl, text: 'The result in Lookout' }] : []),
  ];
}

/** The Events API v2 event of an alert: `resolve` for recoveries, `trigger` for the rest. */
export function pagerDutyEvent(routingKey: string, alert: AlertMessage): Record<string, unknown> {
  const severity = alertSeverity(alert.alertType);
  const base = { routing_key: routingKey, dedup_key: pagerDutyDedupKey(alert) };
  if (severity === 'recovery') return { ...base, event_action: 'resolve' };
  return {
    ...base,
    event_action: 'trigger',
    payload: {
      summary: alert.title.slice(0, 1024),
      source: alert.runLocation ?? 'lookout',
      severity: SEVERITY[severity],
      timestamp: alert.startedAt ?? undefined,
      component: alert.checkName,
      group: alert.groupName ?? undefined,
      class: alert.alertType,
      ...(alert.checkUrl ? { links: pagerDutyLinks(alert) } : {}),
      custom_details: {
        checkId: alert.checkId, checkType: alert.checkType, checkResultId: alert.checkResultId, error: alert.errorMessage,
        responseTime: alert.responseTime, statusCode: alert.statusCode, tags: alert.tags, sslDaysRemaining: alert.sslDaysRemaining,
        text: alertText(alert),
      },
    },
  };
}

/** PAGERDUTY: an Events API v2 event to PAGERDUTY_EVENTS_URL, routed by the channel's serviceKey. */
export const notifyPagerDuty: Notifier = async (channel, alert, ctx) => {
  const key = channel.config.serviceKey;
  if (typeof key !== 'string' || key === '') return configurationFailure('the PagerDuty channel has no serviceKey');
  return sendHttp({ url: ctx.pagerDutyEventsUrl, headers: jsonHeaders(), body: JSON.stringify(pagerDutyEvent(key, alert)) }, ctx);
};
