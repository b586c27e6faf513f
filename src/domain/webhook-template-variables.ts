/**
 * Every variable a webhook template may use, with what it holds: the one list the renderer
 * (templateVariables in alert-message.ts, typed by it) and the console's channel form show, so
 * the two cannot drift. Account variables are usable by their key too; these names win over them.
 */
export const WEBHOOK_TEMPLATE_VARIABLES = [
  { name: 'ALERT_TITLE', description: 'One-line title, such as "Homepage" has failed' },
  { name: 'ALERT_TYPE', description: 'ALERT_FAILURE, ALERT_RECOVERY, ALERT_DEGRADED, ALERT_SSL, …' },
  { name: 'CHECK_ID', description: 'Id of the check' },
  { name: 'CHECK_NAME', description: 'Name of the check' },
  { name: 'CHECK_TYPE', description: 'API, BROWSER, HEARTBEAT, …' },
  { name: 'CHECK_RESULT_ID', description: 'Id of the result the alert is about (empty when none)' },
  { name: 'CHECK_ERROR_MESSAGE', description: 'Error of the run (empty when none)' },
  { name: 'CHECK_URL', description: "The check's page in the console (from LOOKOUT_PUBLIC_URL)" },
  { name: 'RESULT_URL', description: "The result's page in the console (empty when the alert has no result)" },
  { name: 'GROUP_NAME', description: "Name of the check's group (empty when none)" },
  { name: 'RESPONSE_TIME', description: 'Response time in ms' },
  { name: 'RUN_LOCATION', description: 'Location of the run' },
  { name: 'STARTED_AT', description: 'ISO start time of the run' },
  { name: 'TAGS', description: "The check's tags (a list: {{json TAGS}})" },
  { name: 'IS_REMINDER', description: 'true for a reminder of an ongoing failure' },
  { name: 'REMINDER_SEQUENCE', description: '1 for the first reminder, 0 when not a reminder' },
  { name: 'SSL_DAYS_REMAINING', description: 'Days until the certificate expires (ALERT_SSL)' },
  { name: 'SSL_DOMAIN', description: 'Host of the certificate (ALERT_SSL)' },
  { name: 'STATUS_CODE', description: 'HTTP status code of the run' },
  { name: 'IS_TEST', description: 'true for a test message sent with "Send test"' },
] as const;

/** The name of one webhook template variable. */
export type WebhookTemplateVariableName = (typeof WEBHOOK_TEMPLATE_VARIABLES)[number]['name'];
