import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SCRUBBED } from '../../src/domain/scrub-secrets.js';
import { createAlerting, type Alerting } from '../../src/jobs/alerting/create-alerting.js';
import { runCheck } from '../../src/runner/run-check.js';
import { BACKENDS } from '../support/backends.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { startHttpTarget, type HttpTarget } from '../support/http-target.js';
import { createManualClock } from '../support/manual-clock.js';
import { runnableCheck } from '../support/net-probe-fixtures.js';
import { probe } from '../support/run-results.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** A secret host label with capitals: resolvers report host names lower-cased. */
const HOST_SECRET = 'MyPrivateHost';
/** A secret password whose encodings all differ: `&`, a space, `/` and `+`. */
const PASSWORD = 'Tr0ub4dor&3 Xy/+z';

const base64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/**
 * The base64 characters that carry `secret` alone when it follows `pad` bytes of other text:
 * found by encoding it between two different neighbours and keeping what does not change.
 */
function base64Core(secret: string, pad: number): string {
  const a = base64(Buffer.concat([Buffer.alloc(pad, 0x00), Buffer.from(secret), Buffer.alloc(2, 0x00)]));
  const b = base64(Buffer.concat([Buffer.alloc(pad, 0xff), Buffer.from(secret), Buffer.alloc(2, 0xff)]));
  let core = '';
  let run = '';
  for (let i = 0; i < a.length; i++) {
    run = a[i] === b[i] ? run + a[i] : '';
    if (run.length > core.length) core = run;
  }
  return core;
}

/** Every form of `secret` that must not be found in what a run left behind. */
function formsOf(secret: string): [string, string][] {
  return [
    ['as written', secret],
    ['lower-cased', secret.toLowerCase()],
    ['upper-cased', secret.toUpperCase()],
    ['in swapped case', swapCase(secret)],
    ['encodeURIComponent', encodeURIComponent(secret)],
    ['encodeURIComponent, lower-cased', encodeURIComponent(secret.toLowerCase())],
    ['encodeURI', encodeURI(secret)],
    ['form-encoded', new URLSearchParams({ s: secret }).toString().slice(2)],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ['base64', base64(secret)],
    ['base64url', Buffer.from(secret).toString('base64url')],
    ...[0, 1, 2].map((pad): [string, string] => [`inside base64 after ${pad} bytes`, base64Core(secret, pad)]),
  ];
}

/** Fails naming the form and the place when any form of `secret` is in `text`. */
function expectNoForm(where: string, text: string, secret: string): void {
  const found = formsOf(secret).filter(([, form]) => text.includes(form)).map(([name]) => name);
  expect(found, `${where} holds the secret ${found.join(', ')}`).toEqual([]);
}

describe.each(BACKENDS)('secret variables in what a real run leaves behind, on $name', (backend) => {
  let server: TestServer;
  let a: TestClient;
  let target: HttpTarget;
  let receiver: HttpReceiver;
  let alerting: Alerting;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    a = server.a;
    [target, receiver] = await Promise.all([startHttpTarget(), startHttpReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([target?.close(), receiver?.close()]);
    await server?.close();
  });
  beforeEach(() => {
    alerting = createAlerting({
      store: server.lookout.store, bus: server.lookout.bus, logger: pino({ level: 'silent' }), clock: createManualClock(), retryDelaysMs: [], timeoutMs: 5000,
    });
  });
  afterEach(async () => alerting?.close());

  /** Creates a failing API check alerting a webhook of its own, runs it once and gathers every trace of the run. */
  async function runAndCollect(request: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const path = `/hook/${randomUUID()}`;
    const channel = await a.request('POST', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'Hook', url: `${receiver.url}${path}` } });
    expect(channel.status).toBe(201);
    const created = await a.request('POST', '/v1/checks/api?autoAssignAlerts=false', {
      name: `Secret ${randomUUID().slice(0, 8)}`,
      request,
      environmentVariables: [{ key: 'HOST_SECRET', value: HOST_SECRET, secret: true }, { key: 'PASSWORD', value: PASSWORD, secret: true }],
      useGlobalAlertSettings: false,
      alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 1 }, reminders: { amount: 0, interval: 5 } },
      alertChannelSubscriptions: [{ alertChannelId: channel.body.id, activated: true }],
      ...extra,
    });
    expect(created.status).toBe(201);
    const checkId = created.body.id as string;

    const run = await a.request('POST', `/v1/checks/${checkId}/run`);
    expect(run.status).toBe(200);
    const result = run.body.results[0];
    expect(result.hasFailures).toBe(true);
    await alerting.idle();
    const [delivered] = await receiver.waitFor(path, 1);

    const stored = await a.request('GET', `/v1/check-results/${checkId}/${result.id}`);
    const groups = await a.request('GET', `/v1/error-groups/checks/${checkId}`);
    expect(groups.body.length).toBeGreaterThan(0);
    const alerts = await a.request('GET', `/v1/check-alerts/${checkId}`);
    const notifications = await a.request('GET', `/v1/alert-notifications?checkId=${checkId}`);
    return {
      stored: stored.body,
      traces: {
        'the run answer': run.text,
        'the stored result': stored.text,
        'the error groups': groups.text,
        'the check alerts': alerts.text,
        'the alert notifications': notifications.text,
        'the alert webhook body': delivered!.body,
      },
    };
  }

  it('hides a secret host name that a failed lookup reports lower-cased', async () => {
    const { stored, traces } = await runAndCollect({ url: 'http://{{HOST_SECRET}}.invalid/' });
    expect(stored.apiCheckResult.requestError).toMatch(new RegExp(`ENOTFOUND \\*{5}\\.invalid`));
    expect(stored.errors[0].message).toContain(`${SCRUBBED}.invalid`);
    expect(traces['the alert webhook body']).toContain(SCRUBBED);
    for (const [where, text] of Object.entries(traces)) expectNoForm(where, text, HOST_SECRET);
  });

  it('hides a secret password sent URL-encoded, in basic auth and logged in other cases and encodings', async () => {
    const { stored, traces } = await runAndCollect({
      method: 'POST',
      url: `${target.http.url}/echo/{{PASSWORD}}`,
      queryParameters: [{ key: 'password', value: '{{PASSWORD}}' }],
      headers: [{ key: 'X-Password', value: '{{PASSWORD}}' }],
      basicAuth: { username: 'user', password: '{{PASSWORD}}' },
      bodyType: 'FORM',
      body: '{"password":"{{PASSWORD}}"}',
      // The echoed request is the body: the failed assertion quotes it, so error groups and alerts do too.
      assertions: [{ source: 'TEXT_BODY', comparison: 'CONTAINS', target: 'never-in-the-answer' }],
    }, {
      localSetupScript: [
        'const p = process.env.PASSWORD;',
        "console.log('lower', p.toLowerCase(), 'upper', p.toUpperCase(), 'swapped', [...p].map((c) => c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()).join(''));",
        "console.log('encoded', encodeURIComponent(p), encodeURI(p), encodeURIComponent(p.toLowerCase()));",
        "console.log('basic', Buffer.from('user:' + p).toString('base64'), Buffer.from('x' + p).toString('base64url'));",
      ].join('\n'),
    });
    expect(stored.apiCheckResult.jobLog.setup).toHaveLength(3);
    expect(stored.apiCheckResult.response.status).toBe(200);
    expect(traces['the error groups']).toContain(SCRUBBED);
    expect(traces['the alert webhook body']).toContain(SCRUBBED);
    for (const [where, text] of Object.entries(traces)) expectNoForm(where, text, PASSWORD);
  });

  it('hides a secret that a stored body or a log line would be cut through', async () => {
    const cut = PASSWORD.slice(0, 7);
    const { stored, traces } = await runAndCollect({
      url: `${target.http.url}/echo`,
      assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '500' }],
    }, {
      // 7 characters of the secret fall before each cut: the stored body's 256 KiB and a log line's 2,000 characters.
      localTearDownScript: [
        `response.body = 'x'.repeat(${256 * 1024 - 7}) + process.env.PASSWORD;`,
        `console.log('y'.repeat(${2000 - 7}) + process.env.PASSWORD);`,
      ].join('\n'),
    });
    expect(stored.apiCheckResult.response.body.startsWith('xxx')).toBe(true);
    expect(stored.apiCheckResult.jobLog.teardown).toHaveLength(1);
    for (const [where, text] of Object.entries(traces)) {
      expect(text, where).not.toContain(cut);
      expectNoForm(where, text, PASSWORD);
    }
  });
});

describe('what the runner logs and throws about a run', () => {
  const variables = [{ key: 'HOST_SECRET', value: HOST_SECRET, secret: true }];

  it('scrubs the log lines executors write and the error a failed recording throws', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }));
    const failure = new Error(`could not store the result of http://${HOST_SECRET.toLowerCase()}.invalid/`);
    const thrown = await runCheck({
      check: runnableCheck('API', { request: { url: 'http://{{HOST_SECRET}}.invalid/' } }),
      variables,
      locations: ['eu-west-1'],
      allLocations: ['eu-west-1'],
      signal: new AbortController().signal,
      logger,
      executor: async (_check, ctx) => {
        const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${HOST_SECRET.toLowerCase()}.invalid`), { hostname: HOST_SECRET.toUpperCase() });
        ctx.logger.error({ err, url: `http://${HOST_SECRET}.invalid/`, request: { headers: { host: HOST_SECRET.toLowerCase() } } }, 'request failed');
        return probe({ hasFailures: true, errors: [{ code: 'ENOTFOUND', message: err.message }] });
      },
      record: async (input) => {
        expect(input.probe.errors[0]!.message).toBe(`getaddrinfo ENOTFOUND ${SCRUBBED}.invalid`);
        throw failure;
      },
    }).catch((err: unknown) => err);

    expect(thrown).toBe(failure);
    expect(failure.message).toBe(`could not store the result of http://${SCRUBBED}.invalid/`);
    expectNoForm('the error thrown', String(failure.stack), HOST_SECRET);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ msg: 'request failed', url: `http://${SCRUBBED}.invalid/`, err: { type: 'Error', hostname: SCRUBBED } });
    expectNoForm('the log', lines.join(''), HOST_SECRET);
  });
});
