import type { AlertType } from './alert-state.js';
import { alertLinks } from './alert-links.js';
import type { WebhookTemplateVariableName } from './webhook-template-variables.js';

/**
 * What one alert says, whatever the channel: the payload of a check alert, rendered by each
 * notifier (webhook templates see it as ALERT_TITLE, CHECK_NAME... see templateVariables).
 */
export interface AlertMessage {
  alertType: AlertType;
  title: string;
  checkId: string;
  checkName: string;
  checkType: string;
  checkResultId: string | null;
  errorMessage: string | null;
  groupName: string | null;
  /** ms. */
  responseTime: number | null;
  runLocation: string | null;
  /** ISO start of the run the alert is about. */
  startedAt: string | null;
  tags: string[];
  statusCode: number | null;
  isReminder: boolean;
  /** 1 for the first reminder of a failure (or degradation); 0 for an alert that is not a reminder. */
  reminderSequence: number;
  sslDaysRemaining: number | null;
  /** Host whose certificate an ALERT_SSL is about. */
  sslDomain: string | null;
  /** For a parallel run: how many of its locations failed, out of how many. */
  failedLocations: number | null;
  totalLocations: number | null;
  /**
   * The check's console page and the result's (withAlertLinks adds them when the alert is sent, so
   * stored alerts follow LOOKOUT_PUBLIC_URL); absent on an alert not yet linked.
   */
  checkUrl?: string | null;
  resultUrl?: string | null;
  /** True for the message "Send test" delivers: no check failed. */
  isTest?: boolean;
}

/** The alert with its links into the console under `publicUrl` (LOOKOUT_PUBLIC_URL); links already set are kept. */
export function withAlertLinks(alert: AlertMessage, publicUrl: string): AlertMessage {
  if (alert.checkUrl) return alert;
  return { ...alert, ...alertLinks(publicUrl, alert.checkId, alert.checkResultId) };
}

/** The kind of news an alert type is: channels colour and route on it (PagerDuty severity, Slack colour). */
export type AlertSeverity = 'failure' | 'degraded' | 'recovery' | 'ssl';

export function alertSeverity(type: AlertType): AlertSeverity {
  switch (type) {
    case 'ALERT_FAILURE':
    case 'ALERT_FAILURE_REMAIN':
    case 'ALERT_DEGRADED_FAILURE':
      return 'failure';
    case 'ALERT_DEGRADED':
    case 'ALERT_DEGRADED_REMAIN':
    case 'ALERT_FAILURE_DEGRADED':
      return 'degraded';
    case 'ALERT_RECOVERY':
    case 'ALERT_DEGRADED_RECOVERY':
      return 'recovery';
    case 'ALERT_SSL':
      return 'ssl';
  }
}

/** The one-line title of an alert (ALERT_TITLE, email subject, Slack text). */
export function alertTitle(type: AlertType, checkName: string, ssl?: { daysRemaining: number; domain: string | null }): string {
  const name = `"${checkName}"`;
  switch (type) {
    case 'ALERT_FAILURE':
      return `${name} has failed`;
    case 'ALERT_FAILURE_REMAIN':
      return `${name} is still failing`;
    case 'ALERT_DEGRADED_FAILURE':
      return `${name} has failed (it was degraded)`;
    case 'ALERT_DEGRADED':
      return `${name} is degraded`;
    case 'ALERT_DEGRADED_REMAIN':
      return `${name} is still degraded`;
    case 'ALERT_FAILURE_DEGRADED':
      return `${name} is degraded (it was failing)`;
    case 'ALERT_RECOVERY':
      return `${name} has recovered`;
    case 'ALERT_DEGRADED_RECOVERY':
      return `${name} is no longer degraded`;
    case 'ALERT_SSL': {
      const days = ssl?.daysRemaining ?? 0;
      const subject = ssl?.domain ? `The SSL certificate of ${ssl.domain} (${name})` : `The SSL certificate of ${name}`;
      if (days < 0) return `${subject} has expired`;
      return days === 0 ? `${subject} expires today` : `${subject} expires in ${days} day${days === 1 ? '' : 's'}`;
    }
  }
}

/** A reminder repeats the alert it follows, as ALERT_FAILURE_REMAIN or ALERT_DEGRADED_REMAIN. */
export function reminderMessage(alert: AlertMessage, type: AlertType, sequence: number): AlertMessage {
  return { ...alert, alertType: type, title: `${alertTitle(type, alert.checkName)} (reminder ${sequence})`, isReminder: true, reminderSequence: sequence };
}

/** Plain-text body of an alert (email, SMS, calls, Opsgenie descriptions): the title, then the facts known. */
export function alertText(alert: AlertMessage): string {
  const lines = [alert.title, ''];
  const fact = (label: string, value: unknown) => {
    if (value !== null && value !== undefined && value !== '') lines.push(`${label}: ${String(value)}`);
  };
  fact('Check', `${alert.checkName} (${alert.checkType}, ${alert.checkId})`);
  fact('Group', alert.groupName);
  fact('Alert', alert.alertType);
  fact('Location', alert.runLocation);
  if (alert.failedLocations !== null && alert.totalLocations !== null) fact('Failed locations', `${alert.failedLocations} of ${alert.totalLocations}`);
  fact('Started at', alert.startedAt);
  fact('Response time', alert.responseTime === null ? null : `${alert.responseTime} ms`);
  fact('Status code', alert.statusCode);
  fact('Error', alert.errorMessage);
  fact('SSL days remaining', alert.sslDaysRemaining);
  fact('Result', alert.checkResultId);
  if (alert.tags.length > 0) fact('Tags', alert.tags.join(', '));
  fact(alert.isTest ? 'Channels' : 'Check page', alert.checkUrl);
  fact('Result page', alert.resultUrl);
  return lines.join('\n');
}

/**
 * The facts of an alert by the names webhook templates use (the spec's list, plus STATUS_CODE,
 * SSL_DOMAIN, the console links and IS_TEST): exactly WEBHOOK_TEMPLATE_VARIABLES, which types them.
 */
export function templateVariables(alert: AlertMessage, accountVariables: Record<string, string> = {}): Record<string, unknown> {
  // The alert's own names win over account variables of the same name.
  const own: Record<WebhookTemplateVariableName, unknown> = {
    ALERT_TITLE: alert.title,
    ALERT_TYPE: alert.alertType,
    CHECK_ID: alert.checkId,
    CHECK_NAME: alert.checkName,
    CHECK_TYPE: alert.checkType,
    CHECK_RESULT_ID: alert.checkResultId ?? '',
    CHECK_ERROR_MESSAGE: alert.errorMessage ?? '',
    GROUP_NAME: alert.groupName ?? '',
    RESPONSE_TIME: alert.responseTime ?? '',
    RUN_LOCATION: alert.runLocation ?? '',
    STARTED_AT: alert.startedAt ?? '',
    TAGS: alert.tags,
    IS_REMINDER: alert.isReminder,
    REMINDER_SEQUENCE: alert.reminderSequence,
    SSL_DAYS_REMAINING: alert.sslDaysRemaining ?? '',
    SSL_DOMAIN: alert.sslDomain ?? '',
    STATUS_CODE: alert.statusCode ?? '',
    CHECK_URL: alert.checkUrl ?? '',
    RESULT_URL: alert.resultUrl ?? '',
    IS_TEST: alert.isTest === true,
  };
  return { ...accountVariables, ...own };
}

/** The JSON a webhook without a template sends. */
export function defaultWebhookBody(alert: AlertMessage): string {
  return JSON.stringify({
    alertTitle: alert.title,
    alertType: alert.alertType,
    checkId: alert.checkId,
    checkName: alert.checkName,
    checkType: alert.checkType,
    checkResultId: alert.checkResultId,
    checkErrorMessage: alert.errorMessage,
    groupName: alert.groupName,
    responseTime: alert.responseTime,
    runLocation: alert.runLocation,
    startedAt: alert.startedAt,
    tags: alert.tags,
    statusCode: alert.statusCode,
    isReminder: alert.isReminder,
    reminderSequence: alert.reminderSequence,
    sslDaysRemaining: alert.sslDaysRemaining,
    sslDomain: alert.sslDomain,
    checkUrl: alert.checkUrl ?? null,
    resultUrl: alert.resultUrl ?? null,
    ...(alert.isTest ? { isTest: true } : {}),
  });
}
