/**
 * Web console benchmark (issue 14): `npm run bench:console -- [--checks 1000] [--results 2] [--runs 5]`.
 * Needs the built console (`npm run build:web`) and Chromium (LOOKOUT_CHROMIUM_PATH, default /usr/bin/chromium).
 *
 * 1. Initial JavaScript: the scripts web/dist/index.html loads up front (its module entry and the
 *    chunks it modulepreloads), each gzip-compressed with node:zlib (default level), against the
 *    250 KB budget. GraphiQL is a separate entry and not counted.
 * 2. Time to an interactive list: a server on loopback (PGlite in memory) seeded through REST with
 *    --checks API checks and --results stored results each (the runner's recorder, so sparklines have
 *    data); Chromium opens /checks signed in, in a fresh context each run (cold HTTP cache). The figure
 *    is navigation start → the rows visible (in-page clock), plus the time from typing in the filter
 *    input to the rows narrowed on screen; target < 1 s. The server-side filter answer (debounced) is
 *    shown separately.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../test/support/chromium.js';
import { probe, runnable, testRecorder } from '../test/support/run-results.js';
import { startTestServer } from '../test/support/test-server.js';

const BUDGET_BYTES = 250 * 1024;
const INTERACTIVE_BUDGET_MS = 1000;
const DIST = path.resolve('web/dist');

const { values: args } = parseArgs({ options: { checks: { type: 'string', default: '1000' }, results: { type: 'string', default: '2' }, runs: { type: 'string', default: '5' } } });
const CHECKS = Number(args.checks);
const RESULTS = Number(args.results);
const RUNS = Number(args.runs);

/** The scripts index.html makes the browser fetch before the console can start, with their gzipped sizes. */
function initialScripts(html: string): { file: string; raw: number; gzip: number }[] {
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\stype="module"[^>]*\ssrc="([^"]+)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*\srel="modulepreload"[^>]*\shref="([^"]+)"/g)) refs.add(m[1]!);
  return [...refs].map((ref) => {
    const bytes = readFileSync(path.join(DIST, ref.replace(/^\//, '')));
    return { file: ref, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<number> {
  if (!existsSync(path.join(DIST, 'index.html'))) {
    console.error('web/dist/index.html is missing: run npm run build:web first.');
    return 1;
  }
  let failed = false;
  const scripts = initialScripts(readFileSync(path.join(DIST, 'index.html'), 'utf8'));
  const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
  console.log('Console initial JavaScript (gzip):');
  for (const s of scripts) console.log(`  ${s.file}: ${kb(s.raw)} raw, ${kb(s.gzip)} gzipped`);
  const withinSize = total <= BUDGET_BYTES;
  console.log(`  total ${kb(total)} of the ${kb(BUDGET_BYTES)} budget: ${withinSize ? 'OK' : 'OVER BUDGET'}`);
  failed ||= !withinSize;

  const s = await startTestServer({ contract: false, config: { rateLimitMax: 1_000_000 } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const seedStart = Date.now();
    const recorder = testRecorder(s.lookout.store);
    const tags = ['web', 'api', 'internal', 'billing', 'search'];
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < CHECKS) {
        const i = next++;
        const name = `Bench check ${String(i).padStart(4, '0')}`;
        const res = await s.a.request('POST', '/v1/checks/api', {
          name, tags: [tags[i % tags.length]!], locations: ['eu-west-1'], activated: false, request: { url: `https://bench-${i}.example.test/health` },
        });
        if (res.status !== 201) throw new Error(`seeding ${name}: HTTP ${res.status} ${res.text}`);
        for (let r = 0; r < RESULTS; r++) {
          await recorder.record({ check: runnable(s.a, res.body), probe: probe({ at: new Date(Date.now() - (RESULTS - r) * 60_000), responseTime: 100 + ((i * 37 + r * 53) % 400), hasFailures: i % 17 === 0 }) });
        }
      }
    }));
    console.log(`\nSeeded ${CHECKS} checks with ${RESULTS} results each through REST in ${((Date.now() - seedStart) / 1000).toFixed(1)} s.`);

    const rowsMs: number[] = [];
    const filterMs: number[] = [];
    const serverFilterMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript(({ key, account }) => {
        localStorage.setItem('lookout.apiKey', key);
        localStorage.setItem('lookout.accountId', account);
      }, { key: s.a.apiKey, account: s.a.accountId });
      const page = await context.newPage();
      await page.goto(`${s.url}/checks`, { waitUntil: 'commit' });
      // In-page clock: performance.now() counts from navigation start.
      const rowsAt = await (await page.waitForFunction(() => document.querySelectorAll('tbody tr').length > 0 && performance.now(), undefined, { polling: 'raf', timeout: 30_000 })).jsonValue() as number;
      const firstName = (await page.locator('tbody tr td:nth-child(3) a').first().textContent())!;
      const shown = await page.locator('tbody tr').count();
      // Typing narrows the rows on screen at once (the loaded page is filtered locally)…
      const typed = Date.now();
      await page.getByLabel('Name contains').fill(firstName);
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1, undefined, { polling: 'raf' });
      const narrowed = Date.now() - typed;
      // …and the server's filtered answer (after the 250 ms debounce) follows.
      await page.waitForFunction((name) => location.search.includes('q=') && !document.body.textContent!.includes('updating') && document.querySelectorAll('tbody tr').length === 1
        && document.querySelector('tbody tr td:nth-child(3) a')?.textContent === name, firstName, { polling: 'raf' });
      const serverNarrowed = Date.now() - typed;
      rowsMs.push(rowsAt);
      filterMs.push(narrowed);
      serverFilterMs.push(serverNarrowed);
      console.log(`  run ${run + 1}: ${shown} rows visible at ${rowsAt.toFixed(0)} ms; filter narrowed the rows in ${narrowed} ms (server answer in ${serverNarrowed} ms)`);
      await context.close();
    }
    const interactive = rowsMs.map((r, i) => r + filterMs[i]!);
    const worst = Math.max(...interactive);
    console.log(`\n${CHECKS}-check list interactive (rows visible + filter responding): median ${median(interactive).toFixed(0)} ms, worst ${worst.toFixed(0)} ms `
      + `of the ${INTERACTIVE_BUDGET_MS} ms budget: ${worst < INTERACTIVE_BUDGET_MS ? 'OK' : 'OVER BUDGET'}`);
    console.log(`  rows visible median ${median(rowsMs).toFixed(0)} ms; filter response median ${median(filterMs)} ms; server-filtered answer median ${median(serverFilterMs)} ms`);
    failed ||= worst >= INTERACTIVE_BUDGET_MS;
  } finally {
    await browser.close();
    await s.close();
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
