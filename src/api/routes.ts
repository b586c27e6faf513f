import type { Api, ApiContext } from './api-context.js';
import { localAdminRoutes } from './local-admin-routes.js';
import { accountsRoutes } from './accounts-routes.js';
import { membersRoutes } from './members-routes.js';
import { peopleRoutes } from './people-routes.js';
import { sessionRoutes } from './session-routes.js';
import { auditLogRoutes } from './audit-log-routes.js';
import { ssoRoutes } from './sso-routes.js';
import { analyticsRoutes } from './analytics-routes.js';
import { checkResultsRoutes } from './check-results-routes.js';
import { checkStatusesRoutes } from './check-statuses-routes.js';
import { errorGroupsRoutes } from './error-groups-routes.js';
import { badgesRoutes } from './badges-routes.js';
import { catalogRoutes } from './catalog-routes.js';
import { privateLocationsRoutes } from './private-locations-routes.js';
import { agentsRoutes } from './agents-routes.js';
import { staticIpsRoutes } from './static-ips-routes.js';
import { alertChannelsRoutes } from './alert-channels-routes.js';
import { alertChannelActionsRoutes } from './alert-channel-actions-routes.js';
import { alertNotificationsRoutes } from './alert-notifications-routes.js';
import { checkAlertsRoutes } from './check-alerts-routes.js';
import { snippetsRoutes } from './snippets-routes.js';
import { variablesRoutes } from './variables-routes.js';
import { checkGroupsRoutes } from './check-groups-routes.js';
import { checksRoutes } from './checks-routes.js';
import { runAssetsRoutes } from './run-assets-routes.js';
import { runsRoutes } from './runs-routes.js';
import { checkGroupTriggersRoutes } from './check-group-triggers-routes.js';
import { clientCertificatesRoutes } from './client-certificates-routes.js';
import { statusPageIncidentsRoutes } from './status-page-incidents-routes.js';
import { maintenanceWindowsRoutes } from './maintenance-windows-routes.js';
import { checkMaintenanceRoutes } from './check-maintenance-routes.js';
import { statusPagesRoutes } from './status-pages-routes.js';
import { statusPageSubscriptionsRoutes } from './status-page-subscriptions-routes.js';
import { subscriberDeliveriesRoutes } from './subscriber-deliveries-routes.js';
import { dashboardsRoutes } from './dashboards-routes.js';
import { publicDashboardsRoutes } from './public-dashboards-routes.js';
import { testSessionsRoutes } from './test-sessions-routes.js';
import { testSessionRunRoutes } from './test-session-run-routes.js';
import { testSessionLinkRoutes } from './test-session-link-routes.js';
import { checkSessionsRoutes } from './check-sessions-routes.js';
import { resultAssetsRoutes } from './result-assets-routes.js';
import { checklyStorageRoutes } from './checkly-storage-routes.js';
import { eventsRoutes } from './events-routes.js';
import { publicStatusPagesRoutes } from './public-status-pages-routes.js';
import { projectsRoutes } from './projects-routes.js';
import { projectResourcesRoutes } from './project-resources-routes.js';
import { metricsRoutes } from './metrics-routes.js';
import { consoleRoutes } from './console-routes.js';

/** Every REST route module, registered in this order. */
export const ROUTE_MODULES: Array<(app: Api, ctx: ApiContext) => void> = [
  checksRoutes,
  checkGroupsRoutes,
  privateLocationsRoutes,
  agentsRoutes,
  accountsRoutes,
  sessionRoutes,
  ssoRoutes,
  membersRoutes,
  peopleRoutes,
  auditLogRoutes,
  localAdminRoutes,
  catalogRoutes,
  staticIpsRoutes,
  badgesRoutes,
  alertChannelsRoutes,
  alertChannelActionsRoutes,
  checkAlertsRoutes,
  alertNotificationsRoutes,
  variablesRoutes,
  snippetsRoutes,
  checkResultsRoutes,
  checkStatusesRoutes,
  errorGroupsRoutes,
  analyticsRoutes,
  runsRoutes,
  checkGroupTriggersRoutes,
  clientCertificatesRoutes,
  statusPageIncidentsRoutes,
  maintenanceWindowsRoutes,
  checkMaintenanceRoutes,
  statusPagesRoutes,
  statusPageSubscriptionsRoutes,
  subscriberDeliveriesRoutes,
  dashboardsRoutes,
  publicDashboardsRoutes,
  runAssetsRoutes,
  testSessionsRoutes,
  testSessionRunRoutes,
  testSessionLinkRoutes,
  checkSessionsRoutes,
  resultAssetsRoutes,
  checklyStorageRoutes,
  eventsRoutes,
  publicStatusPagesRoutes,
  projectsRoutes,
  projectResourcesRoutes,
  metricsRoutes,
  // Last: its hook defers to the hooks above (a status page's custom domain answers its own `/`).
  consoleRoutes,
];
