import { execFileSync } from 'node:child_process';
import { startTestServer } from './support/test-server.js';
const s = await startTestServer();
const env = { ...process.env, CHECKLY_ENV: 'local', CHECKLY_API_URL: s.url, CHECKLY_API_KEY: s.a.apiKey, CHECKLY_ACCOUNT_ID: s.a.accountId };
for (const args of [['runtimes'], ['whoami']]) {
  try {
    const out = execFileSync('/work/main/node_modules/.bin/checkly', args, { env, encoding: 'utf8', cwd: '/tmp' });
    console.log(args[0], 'OK', out.slice(0, 400));
  } catch (e: any) { console.log(args[0], 'FAILED', e.stdout, e.stderr); }
}
await s.close();
