import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import type { Api, ApiContext } from './api/api-context.js';
import { createApi } from './api/create-api.js';
import { createGraphql } from './graphql/create-graphql.js';
import { createPeopleServices } from './service/create-people-services.js';
import { attachGraphqlSubscriptions } from './graphql/subscriptions/attach-graphql-subscriptions.js';
import type { SubscriptionServer } from './graphql/subscriptions/create-subscription-server.js';
import { SUBSCRIPTION_RESOLVER_MODULES } from './graphql/subscriptions/subscription-resolver-modules.js';
import { loadConfig, type Config } from './config.js';
import { bootstrap, bootstrapOwner, checkBootstrapSettings, type BootstrapResult } from './service/bootstrap.js';
import { SERVER_FILE, writeServerFile } from './store/data-dir-files.js';
import { createCheckGroupService } from './service/check-group-service.js';
import { createCheckService } from './service/check-service.js';
import { createStore, type Store, type StoreOptions } from './store/create-store.js';
import type { EventBus } from './events/event-bus.js';
import { createMemoryEventBus } from './events/create-memory-event-bus.js';
import { createRedisEventBus } from './events/create-redis-event-bus.js';
import { alertingOptionsFromConfig, createAlerting } from './jobs/alerting/create-alerting.js';
import { createSubscriberNotifier } from './jobs/subscriber-notifications/create-subscriber-notifier.js';
import { createRunner, type Runner } from './runner/create-runner.js';
import { createStartProgress, type StartProgress } from './jobs/create-start-progress.js';
import { createMaintenancePauses, type MaintenancePauses } from './jobs/create-maintenance-pauses.js';
import { createExecutors } from './runner/create-executors.js';
import { createSandbox } from './runner/sandbox/create-sandbox.js';
import { sandboxOffRefusal } from './runner/sandbox/sandbox-off-refusal.js';
import { createRunRecorder } from './runner/create-run-recorder.js';
import { createDataRetention } from './jobs/data-retention.js';
import { createAgentService } from './service/agent-service.js';
import type { RecordRun } from './runner/run-check.js';
import { createSessionLeases } from './service/create-session-leases.js';
import { createTestSessionService } from './service/test-session-service.js';
import { createClientCertificateService } from './service/client-certificate-service.js';
import { createStatusPageIncidentService } from './service/status-page-incident-service.js';
import { createMaintenanceWindowService } from './service/maintenance-window-service.js';
import { createMaintenanceClock } from './jobs/maintenance-clock.js';
import { createLeaderElection, type LeaderElection } from './jobs/create-leader-election.js';
import { createStatusPagesService } from './service/status-pages-service.js';
import { createStatusPageSubscriptionService } from './service/status-page-subscription-service.js';
import { smtpSendMails } from './service/status-page-subscription-mailer.js';
import { createDashboardService } from './service/dashboard-service.js';
import { createDashboardPageService } from './service/dashboard-page-service.js';
import { createPublicStatusPageService, type PublicStatusPageService } from './service/public-status-page-service.js';
import { createGroupTriggerService } from './service/group-trigger-service.js';
import { createMqttBroker, type MqttBroker } from './events/create-mqtt-broker.js';
import { createMqttRelay } from './events/create-mqtt-relay.js';
import { mqttAuthenticator } from './api/mqtt-authenticator.js';
import { createMqttSessionStream } from './service/create-mqtt-session-stream.js';
import { createCodeBundleStore } from './service/create-code-bundle-store.js';
import { createTestSessionRunService } from './service/test-session-run-service.js';
import { createMetrics, type Metrics } from './metrics/create-metrics.js';
import { countPublishedEvents } from './metrics/count-published-events.js';
import { observeHttpRequests } from './metrics/observe-http-requests.js';
import { graphqlMetricsPlugin } from './metrics/graphql-metrics-plugin.js';

/** Largest code bundle or file `checkly test` may upload (the CLI reports the limit from the 413). */
const CODE_BUNDLE_MAX_BYTES = 50 * 1024 * 1024;

/** A running (or ready-to-listen) Lookout: the REST API over a store. */
export interface Lookout {
  app: Api;
  store: Store;
  config: Config;
  logger: Logger;
  bootstrap: BootstrapResult;
  bus: EventBus;
  runner: Runner;
  /** Which checks maintenance in progress pauses or covers (read every 5 s and on maintenance events). */
  maintenancePauses: MaintenancePauses;
  /** graphql-ws at /graphql (instrumentation and stats). */
  /** The graphql-ws server (absent in a runner-only process, which serves no API). */
  graphqlSubscriptions?: SubscriptionServer;
  /** MQTT over WebSocket at /mqtt: live results of CLI-started test sessions. */
  mqtt: MqttBroker;
  /** This instance's Prometheus metrics (served at /metrics). */
  metrics: Metrics;
  /** What public status pages read, and the cache they keep (its size is bounded; tests read it). */
  publicStatusPages: PublicStatusPageService;
  /** Starts listening (and the scheduler, when enabled); resolves to the base URL. */
  listen(): Promise<string>;
  /** Stops accepting requests, finishes those in flight and closes the store. */
  close(): Promise<void>;
}

/** Options of createLookout; anything not given comes from the environment. */
export interface LookoutOptions {
  config?: Partial<Config>;
  /** Store options override (tests: in-memory PGlite or a PostgreSQL schema). */
  storeOptions?: StoreOptions;
  logger?: Logger;
  /** Where the start says which step it is at (`lookout serve` makes one before loading these modules). */
  progress?: StartProgress;
}

/**
 * Composition root: wires config, store, services and the HTTP API.
 * Long by design: the composition root reads top to bottom in the order the process starts its parts, and close() undoes them in reverse; splitting it would hide that order.
 */
export async function createLookout(options: LookoutOptions = {}): Promise<Lookout> {
  const config: Config = { ...loadConfig(), ...options.config };
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'lookout' } });
  const progress = options.progress ?? createStartProgress({ logger });
  const storeOptions = options.storeOptions ?? (config.databaseUrl ? { databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize } : { dataDir: config.dataDir });
  // The database's location, never its URL (which may carry a password).
  progress.step('opening database', storeOptions.databaseUrl ? { storage: 'postgresql' } : { storage: 'pglite', dataDir: storeOptions.dataDir ?? 'memory' });
  let store: Store;
  try {
    store = await createStore({
      ...storeOptions,
      migrationProgress: {
        pending: (count) => progress.step(`applying ${count} migration${count === 1 ? '' : 's'}`, { migrations: count }),
        applied: (name, done, of) => progress.detail({ applied: `${done}/${of}`, last: name }),
        fromTemplate: () => progress.step('creating the database from the shipped template (its migrations already applied)'),
      },
    });
  } catch (err) {
    progress.close();
    throw err;
  }
  progress.step('starting the runner, its sandbox and the event streams');
  // An embedded database on disk is this process's alone (a lock guards it).
  const embeddedDataDir = storeOptions.databaseUrl ? undefined : storeOptions.dataDir;
  // Set once the sandbox is made; a start that fails before that has none to close.
  let closeSandbox = () => {};
  try {
    checkBootstrapSettings({ accountId: config.bootstrapAccountId, apiKey: config.bootstrapApiKey });
    // Made once the server listens: a first start that cannot listen leaves no account whose key was never shown.
    let boot: BootstrapResult | undefined;
    const metrics = createMetrics();
    const bus = countPublishedEvents(config.redisUrl ? await createRedisEventBus({ url: config.redisUrl, logger }) : createMemoryEventBus({ logger }), metrics);
    // 200 ms: a result is shown that much later, and a busy server writes a dozen or more per transaction.
    const recorder = createRunRecorder({ store, bus, logger, onRecorded: (input) => metrics.runRecorded(input), windowMs: 200 });
    // Maintenance in progress pauses checks: the scheduler asks this snapshot before each run.
    const pauses = createMaintenancePauses({ store, bus, logger });
    const refusal = sandboxOffRefusal(config.sandbox, await store.accounts.count());
    if (refusal) throw new Error(refusal);
    const sandbox = createSandbox({ settings: config.sandbox, chromiumPath: config.chromiumPath, protectedPaths: [config.dataDir, config.assetsDir], logger });
    closeSandbox = () => sandbox.close();
    const executors = createExecutors(config, sandbox);
    const recordRun: RecordRun = (input) => recorder.record({ ...input, maintenanceWindowIds: pauses.coveringWindows(input.check) });
    const runner = createRunner({
      store,
      logger,
      isPaused: (check) => pauses.isPaused(check),
      record: recordRun,
      executors,
      concurrency: config.runnerConcurrency,
      schedule: config.runnerEnabled,
      onStartDelay: (ms) => metrics.startDelay(ms),
    });
    metrics.watch({
      scheduler: async () => {
        const depth = await store.runJobs.depth();
        return { waiting: depth.queued, leased: depth.leased, inFlight: runner.worker.stats().inFlight };
      },
    });
    // Sessions are leased to the process running them; runner processes resume those whose process died (listen()).
    const sessionLeases = createSessionLeases({ store, logger });
    sessionLeases.start();
    const testSessions = createTestSessionService({ store, bus, runner, logger, leases: sessionLeases, publicUrl: config.publicUrl });
    // Live results of `checkly test|trigger`: a broker on the API's port, fed from the bus.
    const mqtt = await createMqttBroker({ authenticate: mqttAuthenticator(store, bus), logger, otherUpgradePaths: ['/graphql'] });
    // A revoked key's live-result connections end at once, in every process (the bus carries the revocation).
    bus.subscribe('apiKeyRevoked', (event) => {
      const dropped = mqtt.disconnectKey(event.keyHash);
      if (dropped > 0) logger.info({ accountId: event.accountId, keyId: event.keyId, clients: dropped }, 'mqtt clients of a revoked API key disconnected');
    });
    // A member who left stops receiving at once: the account's clients are asked again whether their
    // keys still give access. (A change naming no account only ends console sessions, and MQTT
    // clients connect with keys.)
    bus.subscribe('accessChanged', (event) => {
      if (event.accountId === null) return;
      void mqtt.recheck(event.accountId, async (keyHash, accountId) => (await store.accounts.findKey(keyHash))?.accountId === accountId)
        .then((dropped) => {
          if (dropped > 0) logger.info({ accountId: event.accountId, userId: event.userId, clients: dropped }, 'mqtt clients whose access ended disconnected');
        });
    });
    const mqttRelay = createMqttRelay({ bus, broker: mqtt, logger });
    const mqttSessionStream = createMqttSessionStream({ bus, store, logger, publish: mqttRelay.publish });
    const testSessionRuns = createTestSessionRunService({
      store, bus, logger, publicUrl: config.publicUrl, executors, publish: mqttRelay.publish, leases: sessionLeases,
      agenticModelConfigured: config.agentic !== null, assetsDir: config.assetsDir,
    });
    // Agents lease runs of their location through the API; silent ones are marked gone (and logged) by every API process.
    const agents = createAgentService({ store, logger, record: recordRun, assetsDir: config.assetsDir, dataCenterKey: config.dataCenterAgentKey });
    const agentSweep = setInterval(() => void agents.sweepSilent().catch((err: unknown) => logger.error({ err }, 'marking silent agents gone failed')), 5_000);
    agentSweep.unref();
    // Runner processes compete for the schedule's leadership once listening (see listen()).
    let election: LeaderElection | undefined;
    const servesApi = config.role !== 'runner';
    const context: ApiContext = {
      processStatus: () => ({
        role: config.role === 'runner' ? 'runner' : config.runnerEnabled ? 'all' : 'api',
        scheduler: !config.runnerEnabled ? 'off' : election?.isLeader() ? 'leader' : 'standby',
      }),
      config,
      store,
      checks: createCheckService({ store, publicUrl: config.publicUrl, assetsDir: config.assetsDir, logger, bus, agenticModelConfigured: config.agentic !== null }),
      groups: createCheckGroupService({ store }),
      bus,
      runner,
      testSessions,
      groupTriggers: createGroupTriggerService({ store, runner, logger, publicUrl: config.publicUrl }),
      clientCertificates: createClientCertificateService({ store }),
      statusPageIncidents: createStatusPageIncidentService({ store, bus, logger }),
      maintenanceWindows: createMaintenanceWindowService({ store, bus, logger }),
      statusPages: createStatusPagesService({ store, bus, logger }),
      statusPageSubscriptions: createStatusPageSubscriptionService({
        store, bus, logger, publicUrl: config.publicUrl, timeoutMs: config.alertTimeoutMs, allowPrivateTargets: config.allowPrivateTargets,
        sendMails: config.smtpUrl ? smtpSendMails({ smtpUrl: config.smtpUrl, smtpFrom: config.smtpFrom, timeoutMs: config.alertTimeoutMs }) : undefined,
      }),
      dashboards: createDashboardService({ store, bus, logger, publicUrl: config.publicUrl }),
      dashboardPages: createDashboardPageService({ store }),
      publicStatusPages: createPublicStatusPageService({ store, bus }),
      ...createPeopleServices({
        store, bus, logger, publicUrl: config.publicUrl, oidc: servesApi && config.oidc ? config.oidc : undefined,
        smtp: config.smtpUrl ? { smtpUrl: config.smtpUrl, smtpFrom: config.smtpFrom, timeoutMs: config.alertTimeoutMs } : undefined,
      }),
      mqttSessionStream,
      testSessionRuns,
      agents,
      codeBundles: createCodeBundleStore({ dir: path.join(config.assetsDir, 'checkly-storage'), maxBytes: CODE_BUNDLE_MAX_BYTES }),
      metrics,
      // The embedded database is this process's alone: the command line manages keys and accounts
      // through the API then, with this token (written beside the data once listening, see listen()).
      localAdminToken: embeddedDataDir && config.role !== 'runner' ? randomBytes(32).toString('hex') : undefined,
    };
    let removeServerFile = () => {};
    progress.step('building the REST API and the GraphQL schema');
    const app = await createApi({ context, logger });
    observeHttpRequests(app, metrics);
    if (servesApi) mqtt.attach(app.server);
    // Before the HTTP server closes: it would otherwise wait on the upgraded sockets.
    app.addHook('preClose', async () => {
      mqttSessionStream.close();
      mqttRelay.close();
      await mqtt.close();
    });
    let graphqlSubscriptions: SubscriptionServer | undefined;
    if (servesApi) {
      const graphql = await createGraphql({ app, config, logger, resolvers: SUBSCRIPTION_RESOLVER_MODULES, plugins: [graphqlMetricsPlugin(metrics)], bus });
      const subscriptions = attachGraphqlSubscriptions({ app, schema: graphql.schema, bus, config, logger, contextFromHeaders: graphql.contextFromHeaders });
      metrics.watch({ graphqlSubscriptions: () => subscriptions.stats().subscribers });
      graphqlSubscriptions = subscriptions;
    }
    let retention: { close(): Promise<void> } | undefined;
    // Alerting judges every FINAL result once: it runs only in the process leading the schedule.
    let alerting: { close(): Promise<void> } | undefined;
    // Moves maintenances on time; safe in several processes (each move is claimed once), kept beside alerting.
    let maintenanceClock: { close(): Promise<void> } | undefined;
    // Delivers incident and maintenance updates to status page subscribers; several processes share the work (claims and leases).
    let subscriberNotifier: { close(): Promise<void> } | undefined;
    let closed = false;
    return {
      app,
      store,
      config,
      logger,
      get bootstrap() {
        if (!boot) throw new Error('The bootstrap account is made when the server listens: call listen() first');
        return boot;
      },
      bus,
      runner,
      maintenancePauses: pauses,
      graphqlSubscriptions,
      mqtt,
      metrics,
      publicStatusPages: context.publicStatusPages,
      async listen() {
        progress.step('starting to listen', { port: config.port, host: config.host });
        let url: string;
        try {
          url = await app.listen({ port: config.port, host: config.host });
        } finally {
          progress.close();
        }
        boot = await bootstrap(store, { accountId: config.bootstrapAccountId, apiKey: config.bootstrapApiKey });
        if (config.role !== 'runner') {
          const owner = await bootstrapOwner(store, boot.accountId, { email: config.ownerEmail, password: config.ownerPassword }, boot.created);
          if (owner) boot = { ...boot, owner };
        }
        if (config.runnerEnabled) {
          retention = createDataRetention({ store, settings: config.retention, assetsDir: config.assetsDir, logger });
          maintenanceClock = createMaintenanceClock({ store, bus, logger });
          const n = createSubscriberNotifier({
            store, bus, logger, publicUrl: config.publicUrl, retryDelaysMs: config.alertRetryDelaysSeconds.map((s) => s * 1000), timeoutMs: config.alertTimeoutMs,
            allowPrivateTargets: config.allowPrivateTargets,
            sendMails: config.smtpUrl ? smtpSendMails({ smtpUrl: config.smtpUrl, smtpFrom: config.smtpFrom, timeoutMs: config.alertTimeoutMs }) : undefined,
          });
          await n.resume();
          subscriberNotifier = n;
        }
        // Every process reads it: runs started on demand are marked too, not only scheduled ones.
        await pauses.start();
        if (config.runnerEnabled) {
          // One runner process at a time schedules and alerts; the others stand by and take over
          // when it dies (several would run every slot, and alert, once each).
          election = createLeaderElection({
            db: store.db, logger, name: 'scheduler',
            async onElected() {
              const a = createAlerting({ store, bus, logger, ...alertingOptionsFromConfig(config), onDeliveryAttempt: (d) => metrics.deliveryAttempted(d) });
              await a.resume();
              alerting = a;
              await runner.startScheduling();
            },
            async onDeposed() {
              await runner.stopScheduling();
              await alerting?.close();
              alerting = undefined;
            },
          });
          await election.start();
          // Every runner process takes queued runs, whichever leads the schedule.
          runner.startWorking();
          // Like queued runs, the sessions of processes that died are background work: runner processes
          // take them over; an API-only process runs just the sessions it accepted.
          await sessionLeases.resumeWith({ trigger: (s) => testSessions.resume(s), run: (s) => testSessionRuns.resume(s) });
        }
        if (context.localAdminToken && embeddedDataDir) {
          removeServerFile = writeServerFile(embeddedDataDir, { pid: process.pid, url: localUrlOf(app), token: context.localAdminToken });
          logger.info({ file: path.resolve(embeddedDataDir, SERVER_FILE) }, 'command-line access file written (lookout keys, lookout accounts)');
        }
        return url;
      },
      async close() {
        if (closed) return;
        closed = true;
        removeServerFile();
        // Stop taking requests, then stop planning runs and let the ones in flight finish.
        await app.close();
        context.sso?.close();
        clearInterval(agentSweep);
        // Giving the leadership up stops scheduling and alerting; a standby takes over at once.
        await election?.close();
        // Before the runner closes, which would cancel their runs: sessions finish the checks in flight and hand the rest over.
        sessionLeases.stopResuming();
        await testSessions.close();
        await testSessionRuns.close();
        sessionLeases.close();
        await runner.close();
        closeSandbox();
        await recorder.close();
        await pauses.close();
        await maintenanceClock?.close();
        await subscriberNotifier?.close();
        await retention?.close();
        await bus.close();
        metrics.close();
        await store.close();
      },
    };
  } catch (err) {
    progress.close();
    closeSandbox();
    await store.close();
    throw err;
  }
}

/** Where a process on this machine reaches the server: loopback when it listens on every interface. */
function localUrlOf(app: Api): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server does not listen on a TCP port');
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
