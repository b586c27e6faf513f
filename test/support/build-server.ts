// vitest globalSetup, once per run: suites that start `lookout` as a process (spawn-lookout.ts, the CLI
// suites) run bin/lookout.js, which runs the compiled dist/ (`npm test` builds it in `pretest`; a suite run
// on its own after a change in src/ gets it rebuilt here rather than refused), and in-memory test
// stores start from the migrated database the build ships (pglite-template.ts).
import { ensureServerBuild } from '../../bin/server-build.js';

export default async function buildServer(): Promise<void> {
  await ensureServerBuild();
}
