import { ACCOUNT_VIEW_SCHEMAS } from './account-views.js';
import { ALERT_CHANNEL_VIEW_SCHEMAS } from './alert-channel-views.js';
import { AlertChannelTestAnswer } from './alert-channel-test-answer.js';
import { BulkSubscriptionsAnswer } from './bulk-subscriptions-answer.js';
import { BADGE_VIEW_SCHEMAS } from './badge-views.js';
import { ClientCertificateView } from './client-certificate-schemas.js';
import { CheckGroupTriggerView, GroupRunView } from './trigger-schemas.js';
import { AlertNotificationView, CheckAlertView } from './alert-schemas.js';
import { ANALYTICS_VIEW_SCHEMAS } from './analytics-views.js';
import { CHECK_GROUP_VIEW_SCHEMAS } from './check-group-views.js';
import { CHECK_VIEW_SCHEMAS } from './check-views.js';
import { ErrorBody } from './error-body.js';
import { ERROR_GROUP_VIEW_SCHEMAS } from './error-group-views.js';
import { PRIVATE_LOCATION_VIEW_SCHEMAS } from './private-location-views.js';
import { AGENT_VIEW_SCHEMAS } from './agent-views.js';
import { PROJECT_VIEW_SCHEMAS } from './project-views.js';
import { PROJECT_RESOURCE_VIEW_SCHEMAS } from './project-resource-views.js';
import { ref, toResponseShape, type JsonSchema } from './response-shape.js';
import { RESULT_VIEW_SCHEMAS } from './result-views.js';
import { Snippet } from './snippet-views.js';
import { STATUS_PAGE_INCIDENT_VIEW_SCHEMAS } from './status-page-incident-views.js';
import { MAINTENANCE_WINDOW_LISTS, MAINTENANCE_WINDOW_VIEW_SCHEMAS } from './maintenance-window-views.js';
import { DASHBOARD_VIEW_SCHEMAS } from './dashboard-views.js';
import { STATUS_PAGE_VIEW_SCHEMAS } from './status-page-views.js';
import { STATUS_PAGE_SUBSCRIPTION_VIEW_SCHEMAS } from './status-page-subscription-views.js';
import { SUBSCRIBER_DELIVERY_VIEW_SCHEMAS } from './subscriber-delivery-views.js';
import { TEST_SESSION_VIEW_SCHEMAS } from './test-session-views.js';
import { TEST_SESSION_RUN_VIEW_SCHEMAS } from './test-session-run-views.js';
import { CHECK_SESSION_VIEW_SCHEMAS } from './check-session-views.js';
import { ASSET_MANIFEST_VIEW_SCHEMAS } from './asset-manifest-views.js';
import { TRIGGER_VIEW_SCHEMAS } from './trigger-views.js';
import { Variable } from './variable-views.js';
import { AUDIT_LOG_VIEW_SCHEMAS } from './audit-log-views.js';

/** A named list of a named schema: `<name>List`. */
function listOf(name: string, description: string): JsonSchema {
  return { $id: `${name}List`, type: 'array', items: ref(name), description };
}

const PAGE = '; offset pagination, the total in Content-Range';

/** Alerts and their deliveries, already response schemas (TypeBox) in alert-schemas.ts. */
const ALERT_VIEW_SCHEMAS = [
  { $id: 'CheckAlert', ...toResponseShape(CheckAlertView), description: 'An alert a check raised' },
  { $id: 'AlertNotification', ...toResponseShape(AlertNotificationView), description: 'One delivery attempt of an alert to a channel' },
];

/** Views of client certificates and group triggers, already response schemas (TypeBox) beside their routes' inputs. */
const TRIGGER_AND_CERTIFICATE_SCHEMAS = [
  { $id: 'CheckGroupTrigger', ...toResponseShape(CheckGroupTriggerView), description: 'The trigger token of a check group and the URL that runs it' },
  { $id: 'CheckGroupRun', ...toResponseShape(GroupRunView), description: 'What a group trigger ran: every activated check of the group, in run order' },
  { $id: 'ClientCertificate', ...toResponseShape(ClientCertificateView), description: 'A client certificate (never its key or passphrase)' },
];

/**
 * Every named component of the REST contract, in dependency order: registered with `addSchema`,
 * referenced by routes as `{$ref: '<name>#'}`, rendered under `components/schemas/<name>`.
 */
export const NAMED_SCHEMAS: JsonSchema[] = [
  ErrorBody,
  ...CHECK_VIEW_SCHEMAS,
  ...CHECK_GROUP_VIEW_SCHEMAS,
  ...ACCOUNT_VIEW_SCHEMAS,
  ...AUDIT_LOG_VIEW_SCHEMAS,
  ...ALERT_CHANNEL_VIEW_SCHEMAS,
  AlertChannelTestAnswer,
  BulkSubscriptionsAnswer,
  ...ALERT_VIEW_SCHEMAS,
  Variable,
  Snippet,
  ...PRIVATE_LOCATION_VIEW_SCHEMAS,
  ...AGENT_VIEW_SCHEMAS,
  ...RESULT_VIEW_SCHEMAS,
  ...ERROR_GROUP_VIEW_SCHEMAS,
  ...TEST_SESSION_VIEW_SCHEMAS,
  ...TEST_SESSION_RUN_VIEW_SCHEMAS,
  ...CHECK_SESSION_VIEW_SCHEMAS,
  ...ASSET_MANIFEST_VIEW_SCHEMAS,
  ...ANALYTICS_VIEW_SCHEMAS,
  ...TRIGGER_VIEW_SCHEMAS,
  ...BADGE_VIEW_SCHEMAS,
  ...TRIGGER_AND_CERTIFICATE_SCHEMAS,
  ...STATUS_PAGE_INCIDENT_VIEW_SCHEMAS,
  ...PROJECT_VIEW_SCHEMAS,
  ...PROJECT_RESOURCE_VIEW_SCHEMAS,
  ...MAINTENANCE_WINDOW_VIEW_SCHEMAS,
  ...MAINTENANCE_WINDOW_LISTS,
  ...DASHBOARD_VIEW_SCHEMAS,
  ...STATUS_PAGE_VIEW_SCHEMAS,
  ...STATUS_PAGE_SUBSCRIPTION_VIEW_SCHEMAS,
  ...SUBSCRIBER_DELIVERY_VIEW_SCHEMAS,
  listOf('Check', `Checks${PAGE}`),
  listOf('CheckFields', `Checks, or with fields= only the fields named${PAGE}`),
  listOf('CheckGroup', `Check groups${PAGE}`),
  listOf('Account', "The caller's account, as a one-element array"),
  listOf('NextAccount', "The caller's account (CLI shape), as a one-element array"),
  listOf('Location', 'Every data-center location'),
  listOf('Runtime', 'Every runtime'),
  listOf('AlertChannel', `Alert channels${PAGE}`),
  listOf('CheckAlert', `Alerts, newest first${PAGE}`),
  listOf('AlertNotification', `Delivery attempts, newest first${PAGE}`),
  listOf('Variable', `Environment variables${PAGE}`),
  listOf('Snippet', `Snippets${PAGE}`),
  listOf('PrivateLocation', 'Every private location (unpaginated)'),
  listOf('CheckResult', `Check results, newest first${PAGE}`),
  listOf('CheckStatus', 'Statuses of checks that have run (unpaginated)'),
  listOf('ErrorGroup', `Error groups, most recently seen first${PAGE}`),
  listOf('TestSessionErrorGroup', 'Error groups of a test session'),
  listOf('AnalyticsSummaryEntry', 'One entry per known check, in the order asked'),
  listOf('AnalyticsMetricsOfType', 'The metrics of each check type'),
  listOf('HeartbeatPing', `Pings, newest first${PAGE}`),
  listOf('ClientCertificate', `Client certificates, oldest first${PAGE}`),
  listOf('StatusPageIncidentUpdate', 'The 100 latest updates of an incident, newest first (unpaginated)'),
  listOf('Dashboard', `Dashboards, oldest first${PAGE}`),
  listOf('StatusPageSubscription', 'Every subscriber of a status page, oldest first (unpaginated)'),
];
