import './default-node-env.js';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { loadConfig } from './config.js';
import type { Lookout } from './main.js';
import type { AccountAdmin } from './service/account-admin.js';
import { readServerFile, writeInitialKeyFile } from './store/data-dir-files.js';
import { isProcessAlive } from './store/is-process-alive.js';

// Everything heavier than the settings (fastify, Apollo, PGlite, playwright, aedes, gRPC…) is
// imported by the command that needs it, so `lookout --help` and a mistyped command answer at once.

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

const USAGE = `Usage: lookout [command] [options]

Commands:
  serve [--role all|api|runner]         Start the server (REST API, default port 4000); --role as LOOKOUT_ROLE
  agent                                 Run a private-location (or data-center) agent: LOOKOUT_SERVICE_URL, LOOKOUT_AGENT_KEY
  migrate                               Apply pending database migrations and exit
  keys create --account <id> [--name N] Create an API key for an account and print it once
  keys list --account <id>              List an account's API keys (never the keys)
  keys revoke --account <id> <key id>   Revoke an API key: it stops working at once
  accounts create --name <name>         Create an account with a first API key and print both

Options:
  -h, --help                            Show this help (also: lookout <command> --help)
  -v, --version                         Print the version

Without a command, lookout serves. Configuration comes from environment variables; see README.md.`;

/** Help of each command, shown by `lookout <command> --help`. */
const COMMAND_USAGE: Record<string, string> = {
  serve: `Usage: lookout serve [--role all|api|runner]

Starts the server: REST API, GraphQL (/graphql) and the runner on PORT (default 4000).
  --role   all (default): API and runner; api: the API only; runner: runs checks only (needs DATABASE_URL).
           The same as LOOKOUT_ROLE.
On the first start with an empty database it creates an account and prints its API key.
Settings come from environment variables (PORT, HOST, DATABASE_URL, LOOKOUT_DATA_DIR, LOG_LEVEL, ...); see README.md.`,
  agent: `Usage: lookout agent

Runs a private-location (or data-center) agent that takes runs from a Lookout service.
Settings: LOOKOUT_SERVICE_URL, LOOKOUT_AGENT_KEY, LOOKOUT_AGENT_CONCURRENCY, AGENT_HEALTH_PORT; see README.md.`,
  migrate: `Usage: lookout migrate

Applies pending database migrations (DATABASE_URL, or the embedded database in LOOKOUT_DATA_DIR) and exits.`,
  keys: `Usage: lookout keys create --account <account id> [--name <name>]
       lookout keys list --account <account id>
       lookout keys revoke --account <account id> <key id>

create prints a new API key once (it is stored hashed and never shown again); list shows each key's
id, name, first and last characters, creation and last use; revoke ends a key at once.
While a server runs on the embedded database (LOOKOUT_DATA_DIR), these go through its API with the
token it wrote to lookout.server.json there; otherwise they work on the database directly.`,
  accounts: `Usage: lookout accounts create [--name <name>]

Creates an account with a first API key and prints both (through the running server, as keys does).`,
};

const isHelp = (arg: string | undefined) => arg === '-h' || arg === '--help' || arg === 'help';

/** Opens the database the settings name (running pending migrations), for the one-shot commands. */
async function openStore() {
  const config = loadConfig();
  const { createStore } = await import('./store/create-store.js');
  return createStore(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
}

/**
 * Fails at once when the port is taken, instead of after opening the database and building the
 * schema; the real listen still reports a port taken in between.
 */
async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE'
        ? new Error(`port ${port} on ${host} is already in use: stop the other server or set PORT to a free port`)
        : err.code === 'EACCES' ? new Error(`port ${port} on ${host} needs privileges this process does not have: set PORT to 1024 or above`) : err);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

async function serve(): Promise<void> {
  const config = loadConfig();
  await assertPortFree(config.port, config.host);
  // Handlers first: a signal while the server starts (or right after it says it listens) must stop
  // it cleanly, not kill it with the signal's default action.
  let lookout: Lookout | undefined = undefined;
  let stopping: string | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    if (lookout) close(lookout, signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  // The logger first: loading the server's modules is the first long step of a start.
  const [{ pino }, { createStartProgress }] = await Promise.all([import('pino'), import('./jobs/create-start-progress.js')]);
  const logger = pino({ level: config.logLevel, base: { service: 'lookout' } });
  const progress = createStartProgress({ logger });
  progress.step('loading the server');
  const { createLookout } = await import('./main.js');
  const created = await createLookout({ logger, progress });
  const url = await created.listen();
  lookout = created;
  const { bootstrap } = created;
  if (bootstrap.apiKey || bootstrap.owner?.password) {
    // The key goes to a file only its owner reads, never to stdout or the log, which are often kept
    // and shared (journald, CI logs, docker logs); the log says where it is.
    const keyFile = writeInitialKeyFile(created.config.dataDir, bootstrap.accountId, bootstrap.apiKey, bootstrap.owner);
    logger.info({ accountId: bootstrap.accountId, keyFile }, 'first start: account and API key created; the key is in the key file');
    const base = url.replace('0.0.0.0', 'localhost');
    process.stdout.write(
      `\n  Lookout created an account and an API key.\n\n` +
        `    Account id: ${bootstrap.accountId}\n    Key file:   ${keyFile}  (readable by you only)\n\n` +
        (bootstrap.apiKey ? `  Read the key with: tail -1 ${keyFile}\n` : '') +
        (bootstrap.owner ? `  Open the console at ${base}/ and sign in as ${bootstrap.owner.email}${bootstrap.owner.password ? ' with the password in the key file' : ''}.\n` : `  Open the console at ${base}/ and sign in with it.\n`) +
        `  Save what you need, then delete the file.\n` +
        `  Lost the key? Make another: lookout keys create --account ${bootstrap.accountId}\n\n`,
    );
  }
  logger.info({ url, accountId: bootstrap.accountId, storage: created.store.db.kind }, 'lookout listening');
  // A signal that came while starting.
  if (stopping) close(created, stopping);
}

/** Closes the server (in-flight requests finish) and exits; past 10 s it exits anyway, with 1. */
function close(lookout: Lookout, signal: string): void {
  const { logger } = lookout;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    logger.error('shutdown took longer than 10 s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  lookout.close().then(
    () => {
      logger.info('stopped');
      process.exit(0);
    },
    (err) => {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    },
  );
}

async function agent(): Promise<void> {
  const [{ pino }, { createAgent, localSecretsOf }, { loadAgentConfig }, { createExecutors }, { createSandbox }] = await Promise.all([
    import('pino'), import('./agent/create-agent.js'), import('./agent/load-agent-config.js'),
    import('./runner/create-executors.js'), import('./runner/sandbox/create-sandbox.js'),
  ]);
  const settings = loadAgentConfig(process.env);
  const logger = pino({ level: settings.logLevel, base: { service: 'lookout-agent' } });
  // The runner's executors and sandbox, with the agent's own folder for the files they keep.
  const config = { ...loadConfig(), assetsDir: settings.assetsDir };
  const sandbox = createSandbox({ settings: config.sandbox, chromiumPath: config.chromiumPath, protectedPaths: [config.dataDir, config.assetsDir], logger });
  const executors = createExecutors(config, sandbox);
  const running = await createAgent({
    serviceUrl: settings.serviceUrl, key: settings.key, location: settings.location, concurrency: settings.concurrency,
    healthPort: settings.healthPort, executors, assetsDir: settings.assetsDir, logger, version: VERSION,
    localSecrets: localSecretsOf(process.env),
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.close().then(() => {
      sandbox.close();
      process.exit(0);
    }, (err: unknown) => {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/**
 * Where `keys` and `accounts` do their work: through the server running on the embedded database
 * (it holds the data folder alone), or on the database itself.
 */
async function accountAdmin(): Promise<AccountAdmin> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    const server = readServerFile(config.dataDir);
    if (server && isProcessAlive(server.pid)) return (await import('./service/account-admin.js')).createRestAccountAdmin(server);
  }
  const [{ createStoreAccountAdmin }, { createMemoryEventBus }, { createRedisEventBus }] = await Promise.all([
    import('./service/account-admin.js'), import('./events/create-memory-event-bus.js'), import('./events/create-redis-event-bus.js'),
  ]);
  const store = await openStore();
  // Running servers on the same PostgreSQL hear of revoked keys through Redis, when they share one.
  const bus = config.redisUrl ? await createRedisEventBus({ url: config.redisUrl }) : createMemoryEventBus();
  return createStoreAccountAdmin(store, bus, config.sandbox);
}

/** `lookout keys create|list|revoke` and `lookout accounts create`. */
async function accountCommand(command: 'keys' | 'accounts', sub: string | undefined, rest: string[]): Promise<number> {
  const usage = COMMAND_USAGE[command]!;
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { account: { type: 'string' }, name: { type: 'string' } } });
  const known = command === 'keys' ? ['create', 'list', 'revoke'] : ['create'];
  if (!sub || !known.includes(sub)) {
    process.stderr.write(`lookout: unknown command "${[command, sub].filter(Boolean).join(' ')}"\n\n${usage}\n`);
    return 2;
  }
  if (command === 'keys' && !values.account) {
    process.stderr.write(`keys ${sub} needs --account <account id>\n\n${usage}\n`);
    return 2;
  }
  if (command === 'keys' && sub === 'revoke' && positionals.length !== 1) {
    process.stderr.write(`keys revoke needs the id of the key to revoke (lookout keys list shows them)\n\n${usage}\n`);
    return 2;
  }
  const admin = await accountAdmin();
  try {
    if (command === 'accounts') {
      const made = await admin.createAccount(values.name ?? 'New account');
      process.stdout.write(`account ${made.accountId}\nkey ${made.key}\n`);
    } else if (sub === 'create') {
      process.stdout.write(`${(await admin.createKey(values.account!, values.name ?? 'cli')).key}\n`);
    } else if (sub === 'list') {
      for (const k of await admin.listKeys(values.account!)) {
        process.stdout.write(`${k.id}  ${k.prefix ?? ''}…${k.maskedKey.slice(-4)}  ${JSON.stringify(k.name)}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}\n`);
      }
    } else {
      await admin.revokeKey(values.account!, positionals[0]!);
      process.stdout.write(`revoked ${positionals[0]}\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`lookout: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await admin.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  if (isHelp(command)) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === '-v' || command === '--version' || command === 'version') {
    process.stdout.write(`lookout ${VERSION}\n`);
    return 0;
  }
  if (command !== undefined && COMMAND_USAGE[command] && argv.slice(1).some(isHelp)) {
    process.stdout.write(`${COMMAND_USAGE[command]}\n`);
    return 0;
  }
  if (command === 'serve' || command === undefined) {
    const args = command === undefined ? [] : [sub, ...rest].filter((a): a is string => a !== undefined);
    let role: string | undefined;
    try {
      ({ values: { role } } = parseArgs({ args, options: { role: { type: 'string' } } }));
    } catch (err) {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
      return 2;
    }
    // The flag wins over the environment; loadConfig validates it with the other settings.
    if (role !== undefined) process.env.LOOKOUT_ROLE = role;
    await serve();
    return -1;
  }
  if (command === 'agent') {
    await agent();
    return -1;
  }
  if (command === 'migrate') {
    const store = await openStore();
    await store.close();
    process.stdout.write('migrations applied\n');
    return 0;
  }
  if (command === 'keys' || command === 'accounts') return accountCommand(command, sub, rest);
  process.stderr.write(`lookout: unknown command "${argv.join(' ')}"\n\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: Error & { code?: string }) => {
    process.stderr.write(`lookout: ${err.message}\n`);
    // A malformed command line (unknown option, missing value) is a usage error, as CLIs report it.
    process.exit(err.code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
  },
);
