import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation { from: string; to: string; rule: { name: string } }

/** Runs dependency-cruiser with the project's own rules over `src/` of `cwd`, as `npm run lint:layers` does. */
function depcruise(cwd: string, args: string[] = []): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [DEPCRUISE, 'src', '--config', '.dependency-cruiser.cjs', ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err, stdout) => {
        if (err && typeof err.code !== 'number') reject(err);
        else resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout });
      });
  });
}

/** The violations dependency-cruiser finds in `src/` of `cwd`. */
async function violationsOf(cwd: string): Promise<Violation[]> {
  const { stdout } = await depcruise(cwd, ['--output-type', 'json']);
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/**
 * Imports of a small tree shaped like src/: `[from, to]`, each file importing the other by a relative
 * `.js` specifier, as the sources do. Every file exists, so only the layer rules can object.
 */
const ALLOWED: [string, string][] = [
  ['contract/a-view.ts', 'domain/a-rule.ts'],
  ['store/a-repository.ts', 'contract/a-view.ts'],
  ['runner/a-run.ts', 'store/a-repository.ts'],
  ['runner/a-run.ts', 'config.ts'],
  ['service/a-service.ts', 'runner/a-run.ts'],
  ['service/a-service.ts', 'events/a-event.ts'],
  ['jobs/a-job.ts', 'service/a-service.ts'],
  ['api/a-route.ts', 'jobs/a-job.ts'],
  ['api/a-route.ts', 'metrics/a-metric.ts'],
  ['metrics/a-metric.ts', 'events/a-event.ts'],
  ['graphql/a-resolver.ts', 'contract/__generated__/openapi.ts'],
  ['graphql/a-resolver.ts', 'events/a-event.ts'],
  ['graphql/a-resolver.ts', 'domain/a-rule.ts'],
  ['agent/a-agent.ts', 'runner/a-run.ts'],
  ['main.ts', 'api/a-route.ts'],
  ['main.ts', 'graphql/a-resolver.ts'],
  ['cli.ts', 'agent/a-agent.ts'],
  ['config.ts', 'domain/a-rule.ts'],
];

/** One forbidden import per rule (and per step of the order), with the rule that must name it. */
const FORBIDDEN: [string, string, string][] = [
  ['domain/up-to-events.ts', 'events/a-event.ts', 'domain-imports-only-lower-layers'],
  ['domain/up-to-config.ts', 'config.ts', 'domain-imports-only-lower-layers'],
  ['domain/up-to-contract.ts', 'contract/a-view.ts', 'domain-imports-only-lower-layers'],
  ['contract/up-to-store.ts', 'store/a-repository.ts', 'contract-imports-only-lower-layers'],
  ['contract/up-to-config.ts', 'config.ts', 'contract-reads-no-settings'],
  ['store/up-to-runner.ts', 'runner/a-run.ts', 'store-imports-only-lower-layers'],
  ['runner/up-to-service.ts', 'service/a-service.ts', 'runner-imports-only-lower-layers'],
  ['service/up-to-jobs.ts', 'jobs/a-job.ts', 'service-imports-only-lower-layers'],
  ['service/up-to-metrics.ts', 'metrics/a-metric.ts', 'service-imports-only-lower-layers'],
  ['jobs/up-to-api.ts', 'api/a-route.ts', 'jobs-imports-only-lower-layers'],
  ['api/up-to-graphql.ts', 'graphql/a-resolver.ts', 'api-imports-only-lower-layers'],
  ['api/up-to-main.ts', 'main.ts', 'api-imports-only-lower-layers'],
  ['events/up-to-store.ts', 'store/a-repository.ts', 'events-beside-domain'],
  ['config.ts', 'store/a-repository.ts', 'config-beside-domain'],
  ['graphql/to-contract-source.ts', 'contract/a-view.ts', 'graphql-reaches-events-domain-and-generated-contract'],
  ['graphql/to-service.ts', 'service/a-service.ts', 'graphql-reaches-events-domain-and-generated-contract'],
  ['graphql/to-config.ts', 'config.ts', 'graphql-reaches-events-domain-and-generated-contract'],
  ['metrics/to-service.ts', 'service/a-service.ts', 'metrics-reads-domain-and-events'],
  ['agent/to-service.ts', 'service/a-service.ts', 'agent-runs-checks-only'],
  ['graphql/to-main.ts', 'main.ts', 'entries-are-imported-by-entries-only'],
];

/** A cycle of two files in one layer: allowed by the order, refused as a cycle. */
const CYCLE: [string, string][] = [['service/cycle-one.ts', 'service/cycle-two.ts'], ['service/cycle-two.ts', 'service/cycle-one.ts']];

function writeTree(dir: string) {
  const imports = new Map<string, string[]>();
  for (const [from, to] of [...ALLOWED, ...FORBIDDEN.map(([f, t]) => [f, t] as const), ...CYCLE]) {
    imports.set(from, [...(imports.get(from) ?? []), to]);
    imports.set(to, imports.get(to) ?? []);
  }
  for (const [file, targets] of imports) {
    const target = path.join(dir, 'src', file);
    mkdirSync(path.dirname(target), { recursive: true });
    const lines = targets.map((to, i) => {
      let spec = path.relative(path.dirname(file), to).replace(/\.ts$/, '.js');
      if (!spec.startsWith('.')) spec = `./${spec}`;
      return `import * as m${i} from '${spec}';\nexport const use${i} = m${i};`;
    });
    writeFileSync(target, `${lines.join('\n')}\nexport const name = '${file}';\n`);
  }
  copyFileSync(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
}

describe('the import order of src/ (npm run lint)', () => {
  let dir: string;
  let violations: Violation[];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lookout-layers-'));
    writeTree(dir);
    violations = await violationsOf(dir);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const found = (from: string, to: string) => violations
    .filter((v) => v.from === `src/${from}` && v.to === `src/${to}`)
    .map((v) => v.rule.name);

  it('fails the lint when an import goes against the order, naming the rule', async () => {
    const { code, stdout } = await depcruise(dir);
    expect(code).not.toBe(0);
    expect(stdout).toContain('runner-imports-only-lower-layers: src/runner/up-to-service.ts');
  }, 180_000);

  it.each(FORBIDDEN)('refuses %s importing %s (%s)', (from, to, rule) => {
    expect(found(from, to)).toContain(rule);
  });

  it.each(ALLOWED)('lets %s import %s', (from, to) => {
    expect(found(from, to)).toEqual([]);
  });

  it('refuses a cycle of files, even inside one layer', () => {
    expect(found('service/cycle-one.ts', 'service/cycle-two.ts')).toContain('no-file-cycle');
  });

  it('names nothing but the imports it was given to refuse', () => {
    const expected = new Set([...FORBIDDEN.map(([from, to]) => `src/${from} → src/${to}`), ...CYCLE.map(([from, to]) => `src/${from} → src/${to}`)]);
    expect(violations.map((v) => `${v.from} → ${v.to}`).filter((v) => !expected.has(v))).toEqual([]);
  });

  it('holds for the sources as they are', async () => {
    const own = await violationsOf(ROOT);
    expect(own.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 180_000);
});
