import './default-node-env.js';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { createAgent, localSecretsOf } from './agent/create-agent.js';
import { loadAgentConfig } from './agent/load-agent-config.js';
import { loadConfig } from './config.js';
import { createExecutors } from './runner/create-executors.js';
import { createLookout } from './main.js';
import { createAccountWithKey, createKeyForAccount } from './service/bootstrap.js';
import { createStore } from './store/create-store.js';

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

const USAGE = `Usage: lookout <command>

Commands:
  serve [--role all|api|runner]         Start the server (REST API, default port 4000); --role as LOOKOUT_ROLE
  agent                                 Run a private-location (or data-center) agent: LOOKOUT_SERVICE_URL, LOOKOUT_AGENT_KEY
  migrate                               Apply pending database migrations and exit
  keys create --account <id> [--name N] Create an API key for an account and print it once
  accounts create --name <name>         Create an account with a first API key and print both

Configuration comes from environment variables; see README.md.`;

function storeOptions() {
  const config = loadConfig();
  return config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir };
}

async function serve(): Promise<void> {
  const lookout = await createLookout();
  const { logger, bootstrap } = lookout;
  const url = await lookout.listen();
  if (bootstrap.apiKey) {
    // Printed once, on purpose outside the structured log: it is the only time the key is shown.
    process.stdout.write(
      `\n  Lookout created an account and an API key. Save the key now: it is not shown again.\n\n` +
        `    Account id: ${bootstrap.accountId}\n    API key:    ${bootstrap.apiKey}\n\n` +
        `  Try: curl -H "Authorization: Bearer ${bootstrap.apiKey}" ${url.replace('0.0.0.0', 'localhost')}/v1/checks\n\n`,
    );
  }
  logger.info({ url, accountId: bootstrap.accountId, storage: lookout.store.db.kind }, 'lookout listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
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
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function agent(): Promise<void> {
  const settings = loadAgentConfig(process.env);
  const logger = pino({ level: settings.logLevel, base: { service: 'lookout-agent' } });
  // The runner's executors, with the agent's own folder for the files they keep.
  const executors = createExecutors({ ...loadConfig(), assetsDir: settings.assetsDir });
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
    running.close().then(() => process.exit(0), (err: unknown) => {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
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
    const store = await createStore(storeOptions());
    await store.close();
    process.stdout.write('migrations applied\n');
    return 0;
  }
  if (command === 'keys' && sub === 'create') {
    const { values } = parseArgs({ args: rest, options: { account: { type: 'string' }, name: { type: 'string' } } });
    if (!values.account) {
      process.stderr.write('keys create needs --account <account id>\n');
      return 2;
    }
    const store = await createStore(storeOptions());
    try {
      const key = await createKeyForAccount(store, values.account, values.name ?? 'cli');
      process.stdout.write(`${key}\n`);
      return 0;
    } finally {
      await store.close();
    }
  }
  if (command === 'accounts' && sub === 'create') {
    const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
    const store = await createStore(storeOptions());
    try {
      const made = await createAccountWithKey(store, { name: values.name ?? 'New account' });
      process.stdout.write(`account ${made.accountId}\nkey ${made.apiKey}\n`);
      return 0;
    } finally {
      await store.close();
    }
  }
  process.stderr.write(`${USAGE}\n`);
  return command === 'help' || command === '--help' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: Error) => {
    process.stderr.write(`lookout: ${err.message}\n`);
    process.exit(1);
  },
);
