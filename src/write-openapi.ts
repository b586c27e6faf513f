/**
 * Writes the OpenAPI document the REST API serves at `/openapi.json` to a file, without listening:
 * `tsx src/write-openapi.ts <file>` (run by `npm run codegen`, which then generates the
 * REST types of the GraphQL layer from it). The app is built over an in-memory PGlite store with the
 * runner off; nothing is kept.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pino } from 'pino';
import { createLookout } from './main.js';

/** Builds the app once and returns its OpenAPI document. */
export async function createOpenapiDocument(): Promise<Record<string, unknown>> {
  const lookout = await createLookout({
    config: { port: 0, runnerEnabled: false, redisUrl: undefined, bootstrapAccountId: undefined, bootstrapApiKey: undefined },
    storeOptions: {},
    logger: pino({ level: 'silent' }),
  });
  try {
    await lookout.app.ready();
    return lookout.app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await lookout.close();
  }
}

const target = process.argv[2];
if (target && import.meta.url === `file://${resolve(process.argv[1] ?? '')}`) {
  const file = resolve(target);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(await createOpenapiDocument(), null, 2)}\n`);
}
