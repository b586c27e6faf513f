import { createAccountsRepository } from './accounts-repository.js';
import { createPeopleRepository } from './people-repository.js';
import { createSessionsRepository } from './sessions-repository.js';
import { createInvitationsRepository } from './invitations-repository.js';
import { createSsoLoginsRepository } from './sso-logins-repository.js';
import { createAgentsRepository } from './agents-repository.js';
import { createAnalyticsRepository } from './analytics-repository.js';
import { createCheckStatusesRepository } from './check-statuses-repository.js';
import { createErrorGroupsRepository } from './error-groups-repository.js';
import { createResultsRepository } from './results-repository.js';
import { createBadgeSubjectsRepository } from './badge-subjects-repository.js';
import { createPublicBadgesRepository } from './public-badges-repository.js';
import { createPrivateLocationsRepository } from './private-locations-repository.js';
import { createAlertChannelsRepository } from './alert-channels-repository.js';
import { createAlertNotificationsRepository } from './alert-notifications-repository.js';
import { createAlertStatesRepository } from './alert-states-repository.js';
import { createAlertOutboxRepository } from './alert-outbox-repository.js';
import { createCheckAlertsRepository } from './check-alerts-repository.js';
import { createSslAlertMarksRepository } from './ssl-alert-marks-repository.js';
import { createSnippetsRepository } from './snippets-repository.js';
import { createCheckTriggersRepository } from './check-triggers-repository.js';
import { createCheckGroupTriggersRepository } from './check-group-triggers-repository.js';
import { createClientCertificatesRepository } from './client-certificates-repository.js';
import { createStatusPageServicesRepository } from './status-page-services-repository.js';
import { createStatusPageIncidentsRepository } from './status-page-incidents-repository.js';
import { createStatusPagesRepository } from './status-pages-repository.js';
import { createStatusPageSubscriptionsRepository } from './status-page-subscriptions-repository.js';
import { createVariablesRepository } from './variables-repository.js';
import { createMaintenanceWindowsRepository } from './maintenance-windows-repository.js';
import { createMaintenanceOccurrencesRepository } from './maintenance-occurrences-repository.js';
import { createMaintenanceUpdatesRepository } from './maintenance-updates-repository.js';
import { createPublicContentVersionsRepository } from './public-content-versions-repository.js';
import { createDashboardsRepository } from './dashboards-repository.js';
import { createDashboardChecksRepository } from './dashboard-checks-repository.js';
import { createCheckOpenIncidentsRepository } from './check-open-incidents-repository.js';
import { createPublicPagesRepository } from './public-pages-repository.js';
import { createSubscriberNotificationsRepository } from './subscriber-notifications-repository.js';
import { createSubscriberDeliveriesRepository } from './subscriber-deliveries-repository.js';
import { createActiveMaintenancesRepository } from './active-maintenances-repository.js';
import { createCustomDomainsRepository } from './custom-domains-repository.js';
import { createCheckGroupsRepository } from './check-groups-repository.js';
import { createChecksRepository } from './checks-repository.js';
import type { Queryable } from './db.js';
import { createReferencesRepository } from './references-repository.js';
import { createRunnerRepository } from './runner-repository.js';
import { createRunJobsRepository } from './run-jobs-repository.js';
import { createTestSessionsRepository } from './test-sessions-repository.js';
import { createTestSessionRunResultsRepository } from './test-session-run-results-repository.js';
import { createSubscriptionsRepository } from './subscriptions-repository.js';
import { createAuditLogRepository } from './audit-log-repository.js';

/** Every repository, bound to one connection or transaction. */
export function repositories(q: Queryable) {
  return {
    accounts: createAccountsRepository(q),
    people: createPeopleRepository(q),
    sessions: createSessionsRepository(q),
    invitations: createInvitationsRepository(q),
    auditLog: createAuditLogRepository(q),
    ssoLogins: createSsoLoginsRepository(q),
    results: createResultsRepository(q),
    checkStatuses: createCheckStatusesRepository(q),
    errorGroups: createErrorGroupsRepository(q),
    analytics: createAnalyticsRepository(q),
    privateLocations: createPrivateLocationsRepository(q),
    badgeSubjects: createBadgeSubjectsRepository(q),
    publicBadges: createPublicBadgesRepository(q),
    checks: createChecksRepository(q),
    groups: createCheckGroupsRepository(q),
    subscriptions: createSubscriptionsRepository(q),
    references: createReferencesRepository(q),
    runner: createRunnerRepository(q),
    runJobs: createRunJobsRepository(q),
    agents: createAgentsRepository(q),
    testSessions: createTestSessionsRepository(q),
    testSessionRunResults: createTestSessionRunResultsRepository(q),
    alertChannels: createAlertChannelsRepository(q),
    alertStates: createAlertStatesRepository(q),
    alertOutbox: createAlertOutboxRepository(q),
    checkAlerts: createCheckAlertsRepository(q),
    alertNotifications: createAlertNotificationsRepository(q),
    sslAlertMarks: createSslAlertMarksRepository(q),
    variables: createVariablesRepository(q),
    snippets: createSnippetsRepository(q),
    checkTriggers: createCheckTriggersRepository(q),
    checkGroupTriggers: createCheckGroupTriggersRepository(q),
    clientCertificates: createClientCertificatesRepository(q),
    statusPageServices: createStatusPageServicesRepository(q),
    statusPageIncidents: createStatusPageIncidentsRepository(q),
    statusPages: createStatusPagesRepository(q),
    statusPageSubscriptions: createStatusPageSubscriptionsRepository(q),
    publicContentVersions: createPublicContentVersionsRepository(q),
    maintenanceWindows: createMaintenanceWindowsRepository(q),
    maintenanceOccurrences: createMaintenanceOccurrencesRepository(q),
    maintenanceUpdates: createMaintenanceUpdatesRepository(q),
    dashboards: createDashboardsRepository(q),
    dashboardChecks: createDashboardChecksRepository(q),
    checkOpenIncidents: createCheckOpenIncidentsRepository(q),
    publicPages: createPublicPagesRepository(q),
    subscriberNotifications: createSubscriberNotificationsRepository(q),
    subscriberDeliveries: createSubscriberDeliveriesRepository(q),
    activeMaintenances: createActiveMaintenancesRepository(q),
    customDomains: createCustomDomainsRepository(q),
  };
}
export type Repositories = ReturnType<typeof repositories>;
