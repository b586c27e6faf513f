#!/usr/bin/env node
// The `lookout` command: runs the compiled server in dist/ (built at install by `prepare`, or with
// `npm run build:server`). From a checkout whose src/ changed since that build it refuses in one line
// rather than running old code.
import { serverBuildProblem } from './server-build.js';

const problem = serverBuildProblem();
if (problem) {
  process.stderr.write(`lookout: ${problem}\n`);
  process.exit(1);
}
await import('../dist/cli.js');
