/**
 * The monitoring-as-code project `bench/deploy.ts` deploys, as `checkly deploy` sends it: the body
 * of `POST /v1/projects/deploy` (`projectBundle.synthesize()` plus `repoInfo`), with payloads in
 * the shapes checkly 8.23's constructs synthesize (taken from its `--debug-bundle` output) and
 * references as `{ ref: logicalId }`.
 *
 * The project: `checks` checks spread over `groups` groups (CheckGroupV2, each with tags, locations,
 * an environment variable and two alert channels), five alert channels, and for every tenth check
 * an alert channel of its own. Per 20 checks: 13 API checks (headers, three assertions, response
 * time limits), 3 URL monitors, 2 TCP monitors, 1 DNS monitor and, alternately, a DNS monitor or a
 * Browser check with a short Playwright script. Every target is a closed port on 127.0.0.1.
 */

/** One resource of a deploy body. */
export interface BundleResource {
  logicalId: string;
  type: string;
  member: boolean;
  payload: Record<string, unknown>;
}

/** The body of `POST /v1/projects/deploy`. */
export interface DeployBundle {
  project: { logicalId: string; name: string; repoUrl: string };
  resources: BundleResource[];
  repoInfo: Record<string, string> | null;
}

/** How big the project is and which version of it (0: as first deployed; n: every tenth check changed, n times). */
export interface ProjectShape {
  checks: number;
  groups: number;
  /** Percentage of the checks a new version changes. */
  changePercent: number;
}

const TARGET = 'http://127.0.0.1:9';
const TAGS = ['prod', 'web', 'api', 'payments', 'search', 'checkout', 'eu', 'us', 'internal', 'public'];
const LOCATIONS = ['us-east-1', 'eu-west-1', 'eu-central-1', 'ap-southeast-1'];
const FREQUENCIES = [1, 5, 10, 15, 30, 60];

const CHANNELS: BundleResource[] = [
  { logicalId: 'oncall-email', type: 'alert-channel', member: true, payload: { type: 'EMAIL', config: { address: 'oncall@example.test' } } },
  { logicalId: 'team-email', type: 'alert-channel', member: true, payload: { type: 'EMAIL', config: { address: 'team@example.test' } } },
  { logicalId: 'ops-slack', type: 'alert-channel', member: true, payload: { type: 'SLACK', config: { url: 'https://hooks.slack.test/services/T000/B000/XXXX', channel: '#ops' } } },
  {
    logicalId: 'incident-webhook', type: 'alert-channel', member: true,
    payload: { type: 'WEBHOOK', config: { name: 'Incident bridge', url: 'https://hooks.example.test/incidents', template: '{"check":"{{CHECK_NAME}}","state":"{{ALERT_TYPE}}"}', method: 'POST' } },
  },
  { logicalId: 'pager', type: 'alert-channel', member: true, payload: { type: 'PAGERDUTY', config: { account: 'shop', serviceName: 'Shop', serviceKey: 'bench-service-key-0123456789' } } },
];

const groupId = (g: number) => `group-${String(g + 1).padStart(2, '0')}`;
const checkId = (i: number) => `check-${String(i + 1).padStart(3, '0')}`;

function group(g: number): BundleResource {
  return {
    logicalId: groupId(g), type: 'check-group', member: true,
    payload: {
      name: `Service ${g + 1}`, tags: [`service-${g + 1}`, TAGS[g % TAGS.length]!], locations: [LOCATIONS[g % LOCATIONS.length]!, LOCATIONS[(g + 1) % LOCATIONS.length]!],
      apiCheckDefaults: { headers: [], queryParameters: [], url: '', basicAuth: { username: '', password: '' } },
      environmentVariables: [{ key: 'BASE_URL', value: `${TARGET}/service-${g + 1}` }], v: 2,
    },
  };
}

/** What a new version changes in the i-th check: its name, its frequency or an assertion's target, in turn. */
type Change = 'name' | 'frequency' | 'assertion' | undefined;

function check(i: number, groups: number, change: Change, version: number): BundleResource {
  const g = i % groups;
  const kind = i % 20;
  const suffix = change === 'name' ? ` (v${version + 1})` : '';
  const frequency = FREQUENCIES[(i + (change === 'frequency' ? version : 0)) % FREQUENCIES.length]!;
  const limit = String(1000 + (change === 'assertion' ? 100 * version : 0));
  const common = {
    locations: [LOCATIONS[i % LOCATIONS.length]!], tags: [TAGS[i % TAGS.length]!, TAGS[(i * 7 + 3) % TAGS.length]!], frequency,
    groupId: { ref: groupId(g) }, useGlobalAlertSettings: true, runParallel: false,
  };
  const assertion = (source: string, comparison: string, target: string, property = '') => ({ source, comparison, property, target, regex: null });
  let payload: Record<string, unknown>;
  if (kind <= 12) {
    payload = {
      name: `API ${i + 1}: GET /items/${i + 1}${suffix}`, ...common, environmentVariables: [], checkType: 'API',
      request: {
        url: `${TARGET}/api/items/${i + 1}?expand=owner`, method: 'GET',
        headers: [{ key: 'Accept', value: 'application/json' }, { key: 'X-Request-Source', value: 'lookout-bench' }],
        assertions: [assertion('STATUS_CODE', 'EQUALS', '200'), assertion('JSON_BODY', 'NOT_NULL', '', '$.id'), assertion('RESPONSE_TIME', 'LESS_THAN', limit)],
      },
      degradedResponseTime: 500, maxResponseTime: 2000,
    };
  } else if (kind <= 15) {
    payload = {
      name: `Page ${i + 1}${suffix}`, ...common, doubleCheck: false, checkType: 'URL',
      request: { url: `${TARGET}/pages/${i + 1}`, assertions: [assertion('STATUS_CODE', 'EQUALS', change === 'assertion' ? '204' : '200')], method: 'GET' },
    };
  } else if (kind <= 17) {
    payload = {
      name: `Port ${i + 1}${suffix}`, ...common, doubleCheck: false, checkType: 'TCP',
      request: { hostname: '127.0.0.1', port: 9, assertions: [assertion('RESPONSE_TIME', 'LESS_THAN', String(Number(limit) / 2))] },
    };
  } else if (kind === 18 || i % 40 !== 19) {
    payload = {
      name: `DNS ${i + 1}${suffix}`, ...common, doubleCheck: false, checkType: 'DNS',
      request: { query: `svc-${i + 1}.localhost`, recordType: 'A', assertions: [assertion('RESPONSE_CODE', 'EQUALS', change === 'assertion' ? 'NXDOMAIN' : 'NOERROR')] },
    };
  } else {
    payload = {
      name: `Browser ${i + 1}${suffix}`, ...common, frequency: 10 + (change === 'frequency' ? 5 : 0), environmentVariables: [], checkType: 'BROWSER', sslCheckDomain: null,
      script: [
        "import { test, expect } from '@playwright/test'",
        '',
        `test('journey ${i + 1}', async ({ page }) => {`,
        `  const response = await page.goto('${TARGET}/journey/${i + 1}')`,
        `  expect(response?.status()).toBeLessThan(${change === 'assertion' ? 500 : 400})`,
        "  await expect(page.getByRole('heading')).toBeVisible()",
        '})',
        '',
      ].join('\n'),
      snapshots: [],
    };
  }
  return { logicalId: checkId(i), type: 'check', member: true, payload };
}

/**
 * The project at `version`: version 0 as first deployed; each later version changes `changePercent`
 * of the checks (spread evenly), each in one of three ways, and nothing else.
 */
export function deployBundle(shape: ProjectShape, version: number): DeployBundle {
  const step = Math.max(1, Math.round(100 / shape.changePercent));
  const changes: Change[] = ['name', 'frequency', 'assertion'];
  const resources: BundleResource[] = [];
  for (let g = 0; g < shape.groups; g++) resources.push(group(g));
  for (let i = 0; i < shape.checks; i++) {
    // One check in every `step`, at a shifting position, so the changed checks are of every type.
    const k = Math.floor(i / step);
    const change = version > 0 && i % step === k % step ? changes[k % changes.length] : undefined;
    resources.push(check(i, shape.groups, change, version));
  }
  resources.push(...CHANNELS);
  // As the CLI emits them: a group's alert channels, then a check's own.
  for (let g = 0; g < shape.groups; g++) {
    for (const channel of [CHANNELS[g % 2]!, CHANNELS[2 + (g % 2)]!]) {
      resources.push({
        logicalId: `check-group-alert-channel-subscription#${groupId(g)}#${channel.logicalId}`, type: 'alert-channel-subscription', member: true,
        payload: { alertChannelId: { ref: channel.logicalId }, groupId: { ref: groupId(g) }, activated: true },
      });
    }
  }
  for (let i = 0; i < shape.checks; i += 10) {
    resources.push({
      logicalId: `check-alert-channel-subscription#${checkId(i)}#pager`, type: 'alert-channel-subscription', member: true,
      payload: { alertChannelId: { ref: 'pager' }, checkId: { ref: checkId(i) }, activated: true },
    });
  }
  return {
    project: { logicalId: 'bench-shop', name: 'Bench shop monitoring', repoUrl: 'https://git.example.test/shop/monitoring' },
    resources,
    repoInfo: {
      commitId: `bench${String(version).padStart(35, '0')}`, repoUrl: 'https://git.example.test/shop/monitoring', branchName: 'main',
      commitOwner: 'Bench', commitMessage: version === 0 ? 'Add monitoring' : `Tune ${shape.changePercent} % of the checks`,
    },
  };
}

/** How many resources of each type and check type a bundle has, for the log. */
export function describeBundle(bundle: DeployBundle): string {
  const counts = new Map<string, number>();
  for (const r of bundle.resources) {
    const key = r.type === 'check' ? `${String(r.payload.checkType)} check` : r.type;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
}
