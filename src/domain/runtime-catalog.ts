import type { RuntimeId } from './catalog.js';

/** Whether clients should still pick a runtime: the two newest are CURRENT, the rest DEPRECATED. */
export type RuntimeStage = 'CURRENT' | 'DEPRECATED';

/** One runtime as `/v1/runtimes` shows it. */
export interface Runtime {
  name: RuntimeId;
  stage: RuntimeStage;
  /** Whether MULTI_STEP checks may use it (the checkly CLI refuses them on runtimes without it). */
  multiStepSupport: boolean;
  nodeJsVersion: string;
  /** ISO date after which the runtime no longer runs checks; null: no date is set. */
  runtimeEndOfLife: string | null;
  description: string;
  /** npm packages a check may import, by name, plus `node` (the checkly CLI reads the Node.js version there). */
  dependencies: Record<string, string>;
}

type PublishedRuntime = Pick<Runtime, 'name' | 'multiStepSupport' | 'nodeJsVersion' | 'description' | 'dependencies'>;

/**
 * The runtimes as the public runtime catalogue describes them (the snapshot shipped with the
 * checkly CLI, assets/runtimes/snapshots/20260130/runtimes.json). The checkly CLI checks every
 * import of a browser or multi-step check against these package names before deploying, so the
 * names matter more than the versions.
 */
const PUBLISHED: readonly PublishedRuntime[] = [
  {
    name: '2025.04',
    multiStepSupport: true,
    nodeJsVersion: 'v22.11.0',
    description: 'The main update is Playwright 1.51.1. The Node.js version is v22.11.0.',
    dependencies: {
      '@playwright/test': '1.51.1', '@axe-core/playwright': '4.10.1', '@azure/identity': '4.9.1',
      '@azure/keyvault-secrets': '4.9.0', '@checkly/playwright-helpers': '1.0.3', '@faker-js/faker': '9.7.0',
      '@google-cloud/local-auth': '3.0.1', '@opentelemetry/api': '1.9.0',
      '@opentelemetry/exporter-metrics-otlp-grpc': '0.53.0', '@opentelemetry/sdk-metrics': '1.26.0',
      '@opentelemetry/sdk-trace-base': '1.26.0', '@t3-oss/env-nextjs': '0.11.1', '@xmldom/xmldom': '0.9.2',
      aws4: '1.13.2', axios: '0.28.0', btoa: '1.2.1', http: '22.11.0', https: '22.11.0', 'crypto-js': '4.2.0',
      'date-fns': '3.3.1', 'date-fns-tz': '3.1.3', dotenv: '16.4.5', ethers: '6.13.2', expect: '29.7.0',
      'form-data': '4.0.4', 'gmail-api-parse-message-ts': '2.2.33', 'google-auth-library': '9.14.1',
      googleapis: '144.0.0', graphql: '16.9.0', 'graphql-tag': '2.12.6', jose: '5.9.2', jsdom: '25.0.0',
      jsonwebtoken: '9.0.2', lodash: '4.17.21', long: '5.2.3', moment: '2.30.1', 'nice-grpc': '2.1.12',
      'nice-grpc-client-middleware-deadline': '2.0.15', 'nice-grpc-client-middleware-devtools': '1.0.7',
      'nice-grpc-client-middleware-retry': '3.1.11', 'nice-grpc-common': '2.0.2', 'nice-grpc-error-details': '0.2.9',
      'nice-grpc-opentelemetry': '0.1.18', 'nice-grpc-prometheus': '0.2.7', 'nice-grpc-server-health': '2.0.14',
      'nice-grpc-server-middleware-terminator': '2.0.14', 'nice-grpc-server-reflection': '2.0.14',
      'nice-grpc-web': '3.3.7', 'node-pop3': '0.9.1', otpauth: '9.4.0', playwright: '1.51.1', pdf2json: '3.1.4',
      prisma: '6.6.0', protobufjs: '7.5.0', tedious: '18.6.1', twilio: '5.3.0', uuid: '11.1.0', ws: '8.18.1',
      'xml-crypto': '6.1.1', 'xml-encryption': '3.1.0', zod: '3.24.3', '@clerk/testing': '1.5.1', mailosaur: '8.6.1',
      gaxios: '6.7.1', '@kubernetes/client-node': '1.1.2', mysql: '2.18.1',
    },
  },
  {
    name: '2024.09',
    multiStepSupport: true,
    nodeJsVersion: 'v18.20.3',
    description: 'The main update is Playwright 1.48.2. The Node.js version is v18.20.3. New dependencies are `@clerk/testing`, `mailosaur`, `gaxios`, `@kubernetes/client-node` and `mysql`.',
    dependencies: {
      '@playwright/test': '1.48.2', '@axe-core/playwright': '4.10.0', '@azure/identity': '4.4.1',
      '@azure/keyvault-secrets': '4.8.0', '@checkly/playwright-helpers': '1.0.3', '@faker-js/faker': '9.0.1',
      '@google-cloud/local-auth': '3.0.1', '@opentelemetry/api': '1.9.0',
      '@opentelemetry/exporter-metrics-otlp-grpc': '0.53.0', '@opentelemetry/sdk-metrics': '1.26.0',
      '@opentelemetry/sdk-trace-base': '1.26.0', '@t3-oss/env-nextjs': '0.11.1', '@xmldom/xmldom': '0.9.2',
      aws4: '1.13.2', axios: '0.28.0', btoa: '1.2.1', http: '18.20.3', https: '18.20.3', 'crypto-js': '4.2.0',
      'date-fns': '3.3.1', 'date-fns-tz': '3.1.3', dotenv: '16.4.5', ethers: '6.13.2', expect: '29.7.0',
      'form-data': '4.0.4', 'gmail-api-parse-message-ts': '2.2.33', 'google-auth-library': '9.14.1',
      googleapis: '144.0.0', graphql: '16.9.0', 'graphql-tag': '2.12.6', jose: '5.9.2', jsdom: '25.0.0',
      jsonwebtoken: '9.0.2', lodash: '4.17.21', long: '5.2.3', moment: '2.30.1', 'nice-grpc': '2.1.9',
      'nice-grpc-client-middleware-deadline': '2.0.12', 'nice-grpc-client-middleware-devtools': '1.0.4',
      'nice-grpc-client-middleware-retry': '3.1.8', 'nice-grpc-common': '2.0.2', 'nice-grpc-error-details': '0.2.6',
      'nice-grpc-opentelemetry': '0.1.15', 'nice-grpc-prometheus': '0.2.4', 'nice-grpc-server-health': '2.0.11',
      'nice-grpc-server-middleware-terminator': '2.0.11', 'nice-grpc-server-reflection': '2.0.11',
      'nice-grpc-web': '3.3.4', otpauth: '9.3.2', playwright: '1.48.2', pdf2json: '3.1.4', prisma: '5.19.1',
      protobufjs: '7.4.0', tedious: '18.6.1', twilio: '5.3.0', uuid: '10.0.0', ws: '8.18.0', 'xml-crypto': '4.0.1',
      'xml-encryption': '3.0.2', zod: '3.23.8', '@clerk/testing': '1.3.0', mailosaur: '8.6.1', gaxios: '6.7.1',
      '@kubernetes/client-node': '0.22.3', mysql: '2.18.1',
    },
  },
  {
    name: '2024.02',
    multiStepSupport: true,
    nodeJsVersion: 'v18.20.3',
    description: 'The main update is Playwright 1.42.1. The Node.js version is v18.20.3. New dependencies are `@opentelemetry/exporter-metrics-otlp-grpc`, `@opentelemetry/sdk-metrics`, `chai-json-schema`, `pdf2json`, `protobufjs`, `long` and the `nice-grpc` family.',
    dependencies: {
      '@axe-core/playwright': '4.8.5', '@checkly/playwright-helpers': '1.0.2', '@faker-js/faker': '8.4.1',
      '@google-cloud/local-auth': '3.0.1', '@opentelemetry/api': '1.7.0',
      '@opentelemetry/exporter-metrics-otlp-grpc': '0.48.0', '@opentelemetry/sdk-metrics': '1.22.0',
      '@opentelemetry/sdk-trace-base': '1.22.0', '@playwright/test': '1.42.1', '@t3-oss/env-nextjs': '0.9.2',
      '@xmldom/xmldom': '0.8.10', aws4: '1.12.0', axios: '0.28.0', btoa: '1.2.1', http: '18.20.3', https: '18.20.3',
      chai: '4.4.1', 'chai-json-schema': '1.5.1', 'chai-string': '1.5.0', 'crypto-js': '4.2.0', 'date-fns': '3.3.1',
      'date-fns-tz': '3.1.3', dotenv: '16.4.5', ethers: '6.11.1', expect: '29.7.0', 'form-data': '4.0.0',
      'gmail-api-parse-message-ts': '2.2.32', 'google-auth-library': '9.6.3', googleapis: '133.0.0',
      graphql: '16.9.0', 'graphql-tag': '2.12.6', jose: '5.2.2', jsdom: '24.0.0', jsonwebtoken: '9.0.2',
      lodash: '4.17.21', long: '5.2.3', moment: '2.30.1', 'nice-grpc': '2.1.8',
      'nice-grpc-client-middleware-deadline': '2.0.11', 'nice-grpc-client-middleware-devtools': '1.0.3',
      'nice-grpc-client-middleware-retry': '3.1.7', 'nice-grpc-common': '2.0.2', 'nice-grpc-error-details': '0.2.5',
      'nice-grpc-opentelemetry': '0.1.14', 'nice-grpc-prometheus': '0.2.3', 'nice-grpc-server-health': '2.0.10',
      'nice-grpc-server-middleware-terminator': '2.0.10', 'nice-grpc-server-reflection': '2.0.10',
      'nice-grpc-web': '3.3.3', otpauth: '9.2.2', pdf2json: '3.0.5', playwright: '1.42.1', prisma: '5.10.2',
      protobufjs: '7.2.6', 'protobufjs/minimal': '7.2.6', 'protobufjs/light': '7.2.6', twilio: '4.23.0',
      uuid: '9.0.1', ws: '8.16.0', 'xml-crypto': '4.0.1', 'xml-encryption': '3.0.2', zod: '3.22.4',
      '@azure/identity': '4.3.0', '@azure/keyvault-secrets': '4.8.0', tedious: '18.2.0',
      'allure-playwright': 'latest', '@dvag/playwright-utils': 'latest',
    },
  },
  {
    name: '2023.09',
    multiStepSupport: true,
    nodeJsVersion: 'v18.20.3',
    description: 'The main updates are Playwright 1.38.1 and the addition of ethers 6.7.1, prisma 5.1.1, zod 3.22.2, @t3-oss/env-nextjs 0.6.1 and @xmldom/xmldom 0.8.10. The Node.js version is v18.20.3.',
    dependencies: {
      '@checkly/playwright-helpers': '1.0.2', '@faker-js/faker': '8.0.2', '@google-cloud/local-auth': '3.0.0',
      '@opentelemetry/api': '1.4.1', '@opentelemetry/sdk-trace-base': '1.15.2', '@playwright/test': '1.38.1',
      '@t3-oss/env-nextjs': '0.6.1', '@xmldom/xmldom': '0.8.10', aws4: '1.12.0', axios: '0.27.2', btoa: '1.2.1',
      http: '18.20.3', https: '18.20.3', chai: '4.3.7', 'chai-string': '1.5.0', 'crypto-js': '4.1.1',
      'date-fns': '2.30.0', 'date-fns-tz': '2.0.0', dotenv: '16.3.1', ethers: '6.7.1', expect: '29.6.2',
      'form-data': '4.0.0', 'gmail-api-parse-message-ts': '2.2.32', 'google-auth-library': '9.0.0',
      googleapis: '126.0.0', jose: '4.14.4', jsdom: '22.1.0', jsonwebtoken: '9.0.1', lodash: '4.17.21',
      moment: '2.29.4', otpauth: '9.1.4', playwright: '1.38.1', prisma: '5.1.1', twilio: '4.15.0', uuid: '9.0.0',
      ws: '8.13.0', 'xml-crypto': '4.1.0', 'xml-encryption': '3.0.2', zod: '3.22.2',
    },
  },
  {
    name: '2023.02',
    multiStepSupport: false,
    nodeJsVersion: 'v16.20.2',
    description: 'The main updates are Playwright 1.32.1, faker 7.6.0 and the addition of date-fns 2.29.3 and ws 8.13.0. We are dropping support for Mocha.',
    dependencies: {
      '@faker-js/faker': '7.6.0', '@google-cloud/local-auth': '2.1.1', '@opentelemetry/api': '1.0.4',
      '@opentelemetry/sdk-trace-base': '1.0.1', '@playwright/test': '1.32.3', '@xmldom/xmldom': '0.8.10',
      aws4: '1.11.0', axios: '0.27.2', btoa: '1.2.1', http: '16.20.2', https: '16.20.2', chai: '4.3.7',
      'chai-string': '1.5.0', 'crypto-js': '4.1.1', 'date-fns': '2.29.3', 'date-fns-tz': '2.0.0', expect: '29.3.1',
      'form-data': '4.0.0', 'gmail-api-parse-message-ts': '2.2.32', 'google-auth-library': '8.8.0',
      googleapis: '118.0.0', jose: '4.14.1', jsdom: '21.1.2', jsonwebtoken: '9.0.0', lodash: '4.17.21',
      moment: '2.29.2', otpauth: '9.0.2', twilio: '4.11.1', playwright: '1.32.3', typescript: '4.8.4', uuid: '9.0.0',
      ws: '8.13.0', 'xml-crypto': '4.0.1', 'xml-encryption': '3.0.2',
    },
  },
  {
    name: '2022.10',
    multiStepSupport: false,
    nodeJsVersion: 'v16.20.2',
    description: 'The main updates are Playwright 1.28.0, Node.js v16.20.2 and Typescript support. We are dropping support for Puppeteer.',
    dependencies: {
      '@faker-js/faker': '5.5.3', '@opentelemetry/api': '1.0.4', '@opentelemetry/sdk-trace-base': '1.0.1',
      '@playwright/test': '1.28.0', aws4: '1.11.0', axios: '0.27.2', btoa: '1.2.1', http: '16.20.2',
      https: '16.20.2', chai: '4.3.7', 'chai-string': '1.5.0', 'crypto-js': '4.1.1', expect: '29.3.1',
      'form-data': '4.0.0', jsonwebtoken: '8.5.1', lodash: '4.17.21', mocha: '10.1.0', moment: '2.29.2',
      otpauth: '9.0.2', playwright: '1.28.0', typescript: '4.8.4', uuid: '9.0.0',
    },
  },
];

const CURRENT: readonly RuntimeId[] = ['2026.04', '2025.04'];

const published2025 = PUBLISHED.find((r) => r.name === '2025.04')!;

/**
 * 2026.04 is newer than the published snapshot. Lookout defines it as the 2025.04 package set on
 * Node.js 24 (the LTS line in April 2026), so every import allowed in 2025.04 stays allowed.
 */
const RUNTIME_2026: PublishedRuntime = {
  name: '2026.04',
  multiStepSupport: true,
  nodeJsVersion: 'v24',
  description: 'The main update is Node.js 24. The npm packages are those of runtime 2025.04.',
  dependencies: { ...published2025.dependencies, http: '24', https: '24' },
};

function toRuntime(r: PublishedRuntime): Runtime {
  return {
    name: r.name,
    stage: CURRENT.includes(r.name) ? 'CURRENT' : 'DEPRECATED',
    multiStepSupport: r.multiStepSupport,
    nodeJsVersion: r.nodeJsVersion,
    // Lookout runs every runtime's checks on the same machine, so no runtime is ever switched off.
    runtimeEndOfLife: null,
    description: r.description,
    dependencies: { node: r.nodeJsVersion.replace(/^v/, ''), ...r.dependencies },
  };
}

/** Every runtime, newest first; one entry per id of RUNTIME_IDS. */
export const RUNTIMES: readonly Runtime[] = [RUNTIME_2026, ...PUBLISHED].map(toRuntime);

/** The runtime named `id`, if there is one. */
export function findRuntime(id: string): Runtime | undefined {
  return RUNTIMES.find((r) => r.name === id);
}

/** The Playwright packages a runtime lists, which all run on the one Playwright the runner has installed. */
const PLAYWRIGHT_PACKAGES = ['@playwright/test', 'playwright', 'playwright-core'];

/**
 * The runtime as this runner carries it: every runtime runs browser checks and Playwright check
 * suites on the installed Playwright (`version`), so its Playwright packages say that version
 * (`@playwright/test` always), whatever the published catalogue listed.
 */
export function withInstalledPlaywright(runtime: Runtime, version: string): Runtime {
  const dependencies: Record<string, string> = { ...runtime.dependencies, '@playwright/test': version };
  for (const name of PLAYWRIGHT_PACKAGES) if (name in dependencies) dependencies[name] = version;
  return { ...runtime, dependencies };
}
