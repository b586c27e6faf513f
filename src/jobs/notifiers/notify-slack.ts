import { alertSeverity, type AlertMessage } from '../../domain/alert-message.js';
import type { Notifier } from './notifier.js';
import { jsonHeaders, sendHttp } from './send-http.js';

const COLOURS = { failure: 'danger', degraded: 'warning', recovery: 'good', ssl: 'warning' } as const;

/** The incoming-webhook message of an alert: the title as text, the facts as one attachment. */
export function slackMessage(alert: AlertMessage, channel?: string | null): Record<string, unknown> {
  const fields: { title: string; value: string; short: boolean }[] = [];
  const field = (title: string, value: unknown, short = true) => {
    if (value !== null && value !== undefined && value !== '') fields.push({ title, value: String(value), short });
  };
  field('Check type', alert.checkType);
  field('Location', alert.runLocation);
  field('Group', alert.groupName);
  field('Response time', alert.responseTime === null ? null : `${alert.responseTime} ms`);
  field('Status code', alert.statusCode);
  field('SSL days remaining', alert.sslDaysRemaining);
  if (alert.tags.length > 0) field('Tags', alert.tags.join(', '), false);
  if (alert.resultUrl) field('Result', `<${alert.resultUrl}|Open the result>`, false);
  return {
    text: alert.title,
    ...(channel ? { channel } : {}),
    attachments: [{
      color: COLOURS[alertSeverity(alert.alertType)],
      title: alert.checkName,
      ...(alert.checkUrl ? { title_link: alert.checkUrl } : {}),
      text: alert.errorMessage ?? '',
      fields,
      footer: `${alert.alertType} · check ${alert.checkId}`,
      ts: alert.startedAt ? Math.floor(Date.parse(alert.startedAt) / 1000) : undefined,
    }],
  };
}

/** SLACK: posts `{text, attachments}` (and `channel` when configured) to the incoming webhook `config.url`. */
export const notifySlack: Notifier = async (channel, alert, ctx) =>
  sendHttp({ url: String(channel.config.url ?? ''), headers: jsonHeaders(), body: JSON.stringify(slackMessage(alert, channel.config.channel)) }, ctx);
