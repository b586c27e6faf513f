import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { CheckService } from '../service/check-service.js';
import type { CheckGroupService } from '../service/check-group-service.js';
import type { EventBus } from '../events/event-bus.js';
import type { Runner } from '../runner/create-runner.js';
import type { TestSessionService } from '../service/test-session-service.js';
import type { ClientCertificateService } from '../service/client-certificate-service.js';
import type { StatusPageIncidentService } from '../service/status-page-incident-service.js';
import type { MaintenanceWindowService } from '../service/maintenance-window-service.js';
import type { StatusPagesService } from '../service/status-pages-service.js';
import type { StatusPageSubscriptionService } from '../service/status-page-subscription-service.js';
import type { DashboardService } from '../service/dashboard-service.js';
import type { DashboardPageService } from '../service/dashboard-page-service.js';
import type { GroupTriggerService } from '../service/group-trigger-service.js';
import type { Store } from '../store/create-store.js';
import type { PublicStatusPageService } from '../service/public-status-page-service.js';
import type { Metrics } from '../metrics/create-metrics.js';

/** The Fastify instance routes are registered on, typed by TypeBox schemas. */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What route modules may use: the services (and the store for simple resources). */
export interface ApiContext {
  config: Config;
  store: Store;
  checks: CheckService;
  groups: CheckGroupService;
  bus: EventBus;
  runner: Runner;
  testSessions: TestSessionService;
  groupTriggers: GroupTriggerService;
  clientCertificates: ClientCertificateService;
  statusPageIncidents: StatusPageIncidentService;
  maintenanceWindows: MaintenanceWindowService;
  statusPages: StatusPagesService;
  statusPageSubscriptions: StatusPageSubscriptionService;
  dashboards: DashboardService;
  dashboardPages: DashboardPageService;
  publicStatusPages: PublicStatusPageService;
  /** Console sessions (sign in, switch account, sign out). */
  sessions: import('../service/session-service.js').SessionService;
  /** An account's members, invitations and reset links. */
  members: import('../service/member-service.js').MemberService;
  /** A person's own password and second factor, and password resets. */
  people: import('../service/person-service.js').PersonService;
  /** Single sign-on with OpenID Connect (absent when LOOKOUT_OIDC_ISSUER is unset, and in runner-only processes). */
  sso?: import('../service/oidc-sign-in-service.js').OidcSignInService;
  /** This instance's Prometheus metrics (`GET /metrics`). */
  metrics: Metrics;
  /** Publishes CLI-started test sessions' progress over MQTT (absent: no live stream). */
  mqttSessionStream?: import('../service/create-mqtt-session-stream.js').MqttSessionStream;
  /** Code bundles `checkly test` uploads (absent: the storage routes answer 501). */
  codeBundles?: import('../service/create-code-bundle-store.js').CodeBundleStore;
  /** Runs the checks `checkly test` submits (absent: `/v1/test-sessions/run` answers 501). */
  testSessionRuns?: import('../service/test-session-run-service.js').TestSessionRunService;
  /** The agent protocol's service side (absent: agent routes are not served). */
  agents?: import('../service/agent-service.js').AgentService;
  /** What this process does and whether it leads the schedule now (`GET /health`). */
  processStatus?: () => ProcessStatus;
  /** Drops a revoked key (by hash) from this process's key cache at once; create-api sets it. */
  forgetApiKey?: (keyHash: string) => void;
  /** Bearer token of the command line's `/v1/admin/...` routes (embedded database only; absent: not served). */
  localAdminToken?: string;
}

/** `GET /health`: the process's role and its part in the schedule. */
export interface ProcessStatus {
  /** `all`: API and runner; `api`: API only; `runner`: runs checks, serves health and metrics only. */
  role: 'all' | 'api' | 'runner';
  /** `leader`: schedules and alerts now; `standby`: ready to take over; `off`: never schedules. */
  scheduler: 'leader' | 'standby' | 'off';
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every route not marked `config.public`. */
    principal: import('./authenticate.js').Principal;
  }
  interface FastifyContextConfig {
    /** Routes anyone may call without an API key (specification documents, pings, triggers). */
    public?: boolean;
    /** What the caller's role must allow (route-permission.ts); unset: `read` for GET, `write` otherwise. */
    permission?: import('../domain/roles.js').Permission;
    /** How the audit log says this route's changes came in, when the route says it (project deploys). */
    auditVia?: import('../domain/audit-actor.js').AuditVia;
  }
}
