import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { omitEmpty } from '../support/omit-empty.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A resource as read, without what every write changes. */
const stable = (body: Record<string, unknown>) => {
  const { updated_at: _u, ...rest } = body;
  return rest;
};

/** Zero values of every kind, at every depth, on fields every check type shares. */
const COMMON = {
  muted: false, shouldFail: false, doubleCheck: false, locations: ['eu-west-1'], tags: [], groupOrder: 0, description: '',
  runParallel: false, useGlobalAlertSettings: false, frequency: 10,
  alertSettings: {
    escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 },
    parallelRunFailureThreshold: { enabled: false, percentage: 10 }, sslCertificates: { enabled: false, alertThreshold: 30 },
  },
  retryStrategy: { type: 'FIXED', baseBackoffSeconds: 0, maxRetries: 1, maxDurationSeconds: 0, sameRegion: false, onlyOn: [] },
  environmentVariables: [{ key: 'SECRET', value: 's3cr3t-value', secret: true }, { key: 'EMPTY', value: '', locked: false }],
};
const ASSERTION = { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', property: '', regex: null };

const CHECKS: [string, string, Record<string, unknown>][] = [
  ['api', 'API', {
    ...COMMON, frequency: 0, frequencyOffset: 10, script: '', degradedResponseTime: 0, maxResponseTime: 1000,
    request: {
      method: 'GET', url: 'https://example.test/', followRedirects: false, skipSSL: false, body: '', bodyType: 'NONE',
      headers: [{ key: 'X-Empty', value: '', locked: false }], queryParameters: [], assertions: [ASSERTION], basicAuth: { username: 'u', password: '' },
    },
    localSetupScript: '',
  }],
  ['url', 'URL', { ...COMMON, request: { url: 'https://example.test/', followRedirects: false, skipSSL: false, assertions: [ASSERTION] } }],
  ['tcp', 'TCP', { ...COMMON, request: { hostname: 'db.test', port: 5432, data: '', assertions: [] } }],
  ['dns', 'DNS', { ...COMMON, request: { query: 'example.test', recordType: 'A', nameServer: null, assertions: [{ source: 'RESPONSE_CODE', comparison: 'EQUALS', target: 'NOERROR' }] } }],
  ['icmp', 'ICMP', { ...COMMON, request: { hostname: 'example.test', pingCount: 1, assertions: [] } }],
  ['heartbeat', 'HEARTBEAT', { ...COMMON, heartbeat: { period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'minutes' } }],
  ['browser', 'BROWSER', { ...COMMON, script: "await page.goto('https://example.test')", scriptPath: '', dependencies: [{ path: 'a.js', content: '' }], sslCheckDomain: '' }],
  ['multistep', 'MULTI_STEP', { ...COMMON, script: "await request.get('https://example.test')", dependencies: [] }],
];

describe.each(BACKENDS)('a read sent back with its zero values dropped (omitempty) on $name', (backend) => {
  let s: TestServer;
  let channelIds: number[];
  beforeAll(async () => {
    s = await startTestServer({ backend });
    // Channels first: checks and groups are subscribed to them, so an update's autoAssignAlerts changes nothing.
    const email = await s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'ops@example.test' } });
    const slack = await s.a.request('POST', '/v1/alert-channels', { type: 'SLACK', config: { url: 'https://hooks.slack.com/x' } });
    channelIds = [email.body.id, slack.body.id];
  });
  afterAll(async () => s?.close());

  /** PUTs `body` to `path` and expects the resource to read back exactly as `before`. */
  async function expectUnchanged(readPath: string, writePath: string, before: Record<string, any>, body: unknown) {
    const put = await s.a.request('PUT', writePath, body);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(stable(put.body)).toEqual(stable(before));
    expect(stable((await s.a.request('GET', readPath)).body)).toEqual(stable(before));
  }

  describe.each(CHECKS)('a %s check', (segment, type, body) => {
    let id: string;
    let read: Record<string, any>;
    beforeAll(async () => {
      const created = await s.a.request('POST', `/v1/checks/${segment}`, {
        name: `Round trip ${type}`, ...body,
        // One deactivated subscription: `activated: false` is dropped and must stay false.
        alertChannelSubscriptions: [{ alertChannelId: channelIds[0], activated: true }, { alertChannelId: channelIds[1], activated: false }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      id = created.body.id;
      read = (await s.a.request('GET', `/v1/checks/${id}`)).body;
      expect(read.alertChannelSubscriptions).toContainEqual({ alertChannelId: channelIds[1], activated: false });
      expect(JSON.stringify(read)).not.toContain('s3cr3t-value');
    });

    it('reads back the same after PUT on its typed route of the read as is', async () => {
      await expectUnchanged(`/v1/checks/${id}`, `/v1/checks/${segment}/${id}`, read, read);
    });

    it('reads back the same after PUT on its typed route of the read with zero values dropped', async () => {
      await expectUnchanged(`/v1/checks/${id}`, `/v1/checks/${segment}/${id}`, read, omitEmpty(read));
    });

    it('reads back the same after PUT on the generic route of the read with zero values dropped', async () => {
      await expectUnchanged(`/v1/checks/${id}`, `/v1/checks/${id}`, read, omitEmpty(read));
    });

    it('keeps the secret variable value it never read back', async () => {
      const [row] = await s.lookout.store.db.query<{ data: { environmentVariables: { key: string; value: string }[] } }>('SELECT data FROM checks WHERE id = $1', [id]);
      expect(row!.data.environmentVariables.find((v) => v.key === 'SECRET')?.value).toBe('s3cr3t-value');
    });
  });

  it('creates checks of every type through the generic route from a typed check\'s read sent as is', async () => {
    for (const [segment, type, body] of CHECKS) {
      const created = await s.a.request('POST', `/v1/checks/${segment}`, { name: `Generic ${type}`, ...body });
      const copy = await s.a.request('POST', '/v1/checks', created.body);
      expect(copy.status, JSON.stringify(copy.body)).toBe(201);
      const { id: _a, created_at: _c, heartbeat: _h, environmentVariables: _e, ...same } = stable(created.body) as Record<string, any>;
      expect(copy.body).toMatchObject(same);
    }
  });

  describe.each(['v1', 'v2'])('a check group on the %s routes', (version) => {
    let id: number;
    let read: Record<string, any>;
    beforeAll(async () => {
      const snippet = await s.a.request('POST', '/v1/snippets', { name: 'setup', script: '' });
      const created = await s.a.request('POST', `/${version}/check-groups`, {
        name: `Group ${version}`, muted: false, tags: [], locations: ['eu-west-1'], privateLocations: [], concurrency: 1, runParallel: false,
        apiCheckDefaults: { url: '', headers: [{ key: 'X-Group', value: '' }], queryParameters: [], assertions: [ASSERTION], basicAuth: { username: 'g', password: '' } },
        environmentVariables: [{ key: 'G_SECRET', value: 'group-secret', secret: true }, { key: 'G_EMPTY', value: '' }],
        alertSettings: { reminders: { amount: 0, interval: 5 } }, retryStrategy: 'FALLBACK', useGlobalAlertSettings: false, doubleCheck: false,
        setupSnippetId: snippet.body.id, localSetupScript: '',
        alertChannelSubscriptions: [{ alertChannelId: channelIds[0], activated: false }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      id = created.body.id;
      read = (await s.a.request('GET', `/${version}/check-groups/${id}`)).body;
    });

    it('reads back the same after PUT of the read as is', async () => {
      await expectUnchanged(`/${version}/check-groups/${id}`, `/${version}/check-groups/${id}`, read, read);
    });

    it('reads back the same after PUT of the read with zero values dropped', async () => {
      await expectUnchanged(`/${version}/check-groups/${id}`, `/${version}/check-groups/${id}`, read, omitEmpty(read));
      const [row] = await s.lookout.store.db.query<{ data: { environmentVariables: { key: string; value: string }[] } }>('SELECT data FROM check_groups WHERE id = $1', [id]);
      expect(row!.data.environmentVariables.find((v) => v.key === 'G_SECRET')?.value).toBe('group-secret');
    });
  });

  const CHANNELS: [string, Record<string, unknown>][] = [
    ['EMAIL', { address: 'team@example.test' }],
    ['SLACK', { url: 'https://hooks.slack.com/services/T/B/x', channel: '' }],
    ['SLACK_APP', { channel: '#alerts' }],
    ['WEBHOOK', {
      name: 'Hook', url: 'https://hooks.example.test/in', method: 'POST', template: '',
      headers: [{ key: 'Authorization', value: 'Bearer locked-token', locked: true }, { key: 'X-Open', value: 'open', locked: false }],
      queryParameters: [], webhookSecret: 'whsec-round-trip',
    }],
    ['SMS', { name: 'On call', number: '+31612345678' }],
    ['CALL', { name: 'On call', number: '+31612345678' }],
    ['PAGERDUTY', { account: '', serviceName: 'svc', serviceKey: 'pd-service-key-1234' }],
    ['OPSGENIE', { name: 'Genie', apiKey: 'genie-api-key-5678', region: 'EU', priority: 'P3' }],
  ];
  it.each(CHANNELS)('keeps a %s alert channel, secrets included, when its read comes back with zero values dropped', async (type, config) => {
    const created = await s.a.request('POST', '/v1/alert-channels', { type, config, sendDegraded: false, sslExpiry: false, autoSubscribe: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const secrets = (await s.lookout.store.alertChannels.getWithSecrets(s.a.accountId, id))!.secrets;
    const read = (await s.a.request('GET', `/v1/alert-channels/${id}`)).body;
    await expectUnchanged(`/v1/alert-channels/${id}`, `/v1/alert-channels/${id}`, read, read);
    await expectUnchanged(`/v1/alert-channels/${id}`, `/v1/alert-channels/${id}`, read, omitEmpty(read));
    expect((await s.lookout.store.alertChannels.getWithSecrets(s.a.accountId, id))!.secrets).toEqual(secrets);
  });

  it.each([
    ['a plain variable with an empty value', { key: 'EMPTY_VALUE', value: '', locked: false, secret: false }],
    ['a locked variable', { key: 'LOCKED_VALUE', value: 'shown', locked: true }],
    ['a secret variable', { key: 'SECRET_VALUE', value: 'never-read-back', secret: true }],
  ])('keeps %s when its read comes back with zero values dropped', async (_label, body) => {
    expect((await s.a.request('POST', '/v1/variables', body)).status).toBe(201);
    const read = (await s.a.request('GET', `/v1/variables/${body.key}`)).body;
    await expectUnchanged(`/v1/variables/${body.key}`, `/v1/variables/${body.key}`, read, omitEmpty(read));
    const [row] = await s.lookout.store.db.query<{ value: string }>('SELECT value FROM environment_variables WHERE key = $1', [body.key]);
    expect(row!.value).toBe(body.value);
  });

  it.each([
    ['an empty script', { name: 'Empty', script: '' }],
    ['a script', { name: 'Some', script: 'console.log(1)' }],
  ])('keeps a snippet with %s when its read comes back with zero values dropped', async (_label, body) => {
    const created = await s.a.request('POST', '/v1/snippets', body);
    const read = (await s.a.request('GET', `/v1/snippets/${created.body.id}`)).body;
    await expectUnchanged(`/v1/snippets/${created.body.id}`, `/v1/snippets/${created.body.id}`, read, omitEmpty(read));
  });

  it.each([
    ['without icon or proxy', { name: 'Office', slugName: 'office-plain' }],
    ['with icon and proxy', { name: 'Lab', slugName: 'lab-proxy', icon: 'flask', proxyUrl: 'http://proxy.test:8080' }],
  ])('keeps a private location %s when its read comes back with zero values dropped', async (_label, body) => {
    const created = await s.a.request('POST', '/v1/private-locations', body);
    expect(created.status).toBe(201);
    const read = (await s.a.request('GET', `/v1/private-locations/${created.body.id}`)).body;
    await expectUnchanged(`/v1/private-locations/${created.body.id}`, `/v1/private-locations/${created.body.id}`, read, omitEmpty(read));
  });
});
