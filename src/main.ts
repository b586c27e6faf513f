import { pino, type Logger } from 'pino';
import type { Api, ApiContext } from './api/api-context.js';
import { createApi } from './api/create-api.js';
import { loadConfig, type Config } from './config.js';
import { bootstrap, type BootstrapResult } from './service/bootstrap.js';
import { createCheckGroupService } from './service/check-group-service.js';
import { createCheckService } from './service/check-service.js';
import { createStore, type Store, type StoreOptions } from './store/create-store.js';

/** A running (or ready-to-listen) Lookout: the REST API over a store. */
export interface Lookout {
  app: Api;
  store: Store;
  config: Config;
  logger: Logger;
  bootstrap: BootstrapResult;
  /** Starts listening; resolves to the base URL. */
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
}

/** Composition root: wires config, store, services and the HTTP API. */
export async function createLookout(options: LookoutOptions = {}): Promise<Lookout> {
  const config: Config = { ...loadConfig(), ...options.config };
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'lookout' } });
  const store = await createStore(
    options.storeOptions ?? (config.databaseUrl ? { databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize } : { dataDir: config.dataDir }),
  );
  try {
    const boot = await bootstrap(store, { accountId: config.bootstrapAccountId, apiKey: config.bootstrapApiKey });
    const context: ApiContext = {
      config,
      store,
      checks: createCheckService({ store, publicUrl: config.publicUrl }),
      groups: createCheckGroupService({ store }),
    };
    const app = await createApi({ context, logger });
    let closed = false;
    return {
      app,
      store,
      config,
      logger,
      bootstrap: boot,
      async listen() {
        return app.listen({ port: config.port, host: config.host });
      },
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
