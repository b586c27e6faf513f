import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertTitle, type AlertMessage } from '../../src/domain/alert-message.js';
import type { AlertType } from '../../src/domain/alert-state.js';
import { webhookSignature } from '../../src/domain/webhook-signature.js';
import type { NotifierContext, NotifyChannel } from '../../src/jobs/notifiers/notifier.js';
import { NOTIFIERS } from '../../src/jobs/notifiers/notifiers.js';
import { notifyCall } from '../../src/jobs/notifiers/notify-call.js';
import { notifyEmail } from '../../src/jobs/notifiers/notify-email.js';
import { notifyOpsgenie } from '../../src/jobs/notifiers/notify-opsgenie.js';
import { notifyPagerDuty } from '../../src/jobs/notifiers/notify-pagerduty.js';
import { notifySlack } from '../../src/jobs/notifiers/notify-slack.js';
import { notifySlackApp } from '../../src/jobs/notifiers/notify-slack-app.js';
import { notifySms } from '../../src/jobs/notifiers/notify-sms.js';
import { notifyWebhook } from '../../src/jobs/notifiers/notify-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../support/http-receiver.js';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../support/smtp-receiver.js';

const CHECK_ID = '6f1b1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4';

function alert(type: AlertType = 'ALERT_FAILURE', overrides: Partial<AlertMessage> = {}): AlertMessage {
  return {
    alertType: type,
    title: alertTitle(type, 'Shop "home" page'),
    checkId: CHECK_ID,
    checkName: 'Shop "home" page',
    checkType: 'API',
    checkResultId: '0d9c8b7a-6f5e-4d3c-8b2a-190807060504',
    errorMessage: 'Assertion failed: STATUS_CODE EQUALS 200 (actual: 503)',
    groupName: 'Shop',
    responseTime: 123.4,
    runLocation: 'eu-west-1',
    startedAt: '2026-05-01T10:00:00.000Z',
    tags: ['prod', 'shop'],
    statusCode: 503,
    isReminder: false,
    reminderSequence: 0,
    sslDaysRemaining: null,
    sslDomain: null,
    failedLocations: null,
    totalLocations: null,
    ...overrides,
  };
}

describe('alert notifiers', () => {
  let receiver: HttpReceiver;
  let ctx: NotifierContext;
  const channel = (type: NotifyChannel['type'], config: Record<string, any>): NotifyChannel => ({ id: 1, type, config });

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    ctx = {
      variables: { API_TOKEN: 'tok-123', ENVIRONMENT: 'production' },
      timeoutMs: 5000,
      smtpFrom: 'Lookout <alerts@lookout.test>',
      pagerDutyEventsUrl: `${receiver.url}/pagerduty/v2/enqueue`,
      opsgenieApiUrls: { US: `${receiver.url}/opsgenie-us`, EU: `${receiver.url}/opsgenie-eu/` },
      smsProviderUrl: `${receiver.url}/sms`,
      callProviderUrl: `${receiver.url}/call`,
    };
  });
  afterAll(async () => receiver?.close());

  describe('WEBHOOK', () => {
    it('renders the Handlebars template, header values and query parameters over the alert and account variables', async () => {
      const template = '{"title": {{json ALERT_TITLE}}, "type": "{{ALERT_TYPE}}", "check": "{{CHECK_ID}}", "name": {{json CHECK_NAME}}, '
        + '"checkType": "{{CHECK_TYPE}}", "result": "{{CHECK_RESULT_ID}}", "error": {{json CHECK_ERROR_MESSAGE}}, "group": "{{GROUP_NAME}}", '
        + '"rt": {{RESPONSE_TIME}}, "location": "{{RUN_LOCATION}}", "startedAt": "{{STARTED_AT}}", "tags": "{{#each TAGS}}{{this}};{{/each}}", '
        + '"reminder": {{IS_REMINDER}}, "sequence": {{REMINDER_SEQUENCE}}, "ssl": "{{SSL_DAYS_REMAINING}}", "env": "{{ENVIRONMENT}}"}';
      const result = await notifyWebhook(channel('WEBHOOK', {
        name: 'Hook', url: `${receiver.url}/hook/{{ENVIRONMENT}}`, method: 'PUT', template,
        headers: [{ key: 'Authorization', value: 'Bearer {{API_TOKEN}}' }, { key: 'X-Check', value: '{{CHECK_ID}}' }],
        queryParameters: [{ key: 'type', value: '{{ALERT_TYPE}}' }, { key: 'static', value: 'yes' }],
      }), alert(), ctx);
      expect(result).toMatchObject({ ok: true, status: 200 });
      const [req] = receiver.to('/hook/production');
      expect(req).toMatchObject({ method: 'PUT', query: { type: 'ALERT_FAILURE', static: 'yes' } });
      expect(req!.headers).toMatchObject({ authorization: 'Bearer tok-123', 'x-check': CHECK_ID, 'content-type': 'application/json' });
      expect(req!.json).toEqual({
        title: '"Shop "home" page" has failed', type: 'ALERT_FAILURE', check: CHECK_ID, name: 'Shop "home" page', checkType: 'API',
        result: '0d9c8b7a-6f5e-4d3c-8b2a-190807060504', error: 'Assertion failed: STATUS_CODE EQUALS 200 (actual: 503)', group: 'Shop',
        rt: 123.4, location: 'eu-west-1', startedAt: '2026-05-01T10:00:00.000Z', tags: 'prod;shop;', reminder: false, sequence: 0, ssl: '', env: 'production',
      });
      expect(req!.headers['x-lookout-signature']).toBeUndefined();
    });

    it('sends the default JSON body without a template and signs the exact bytes with the webhook secret', async () => {
      const secret = 's3cr3t-signing-key';
      const result = await notifyWebhook(channel('WEBHOOK', { name: 'Hook', url: `${receiver.url}/signed`, webhookSecret: secret }), alert('ALERT_RECOVERY'), ctx);
      expect(result.ok).toBe(true);
      const [req] = receiver.to('/signed');
      expect(req!.method).toBe('POST');
      expect(req!.json).toMatchObject({
        alertType: 'ALERT_RECOVERY', alertTitle: '"Shop "home" page" has recovered', checkId: CHECK_ID, checkName: 'Shop "home" page',
        runLocation: 'eu-west-1', tags: ['prod', 'shop'], isReminder: false,
      });
      const expected = webhookSignature(secret, req!.body);
      expect(req!.headers['x-lookout-signature']).toBe(expected);
      expect(req!.headers['x-checkly-signature']).toBe(expected);
      expect(expected).toMatch(/^[0-9a-f]{64}$/);
      expect(webhookSignature('another secret', req!.body)).not.toBe(expected);
    });

    it('sends a template that is not JSON as text/plain, and a GET without a body', async () => {
      await notifyWebhook(channel('WEBHOOK', { name: 'Hook', url: `${receiver.url}/text`, template: 'ALERT {{ALERT_TYPE}} for {{CHECK_NAME}}' }), alert(), ctx);
      const [text] = receiver.to('/text');
      expect(text!.body).toBe('ALERT ALERT_FAILURE for Shop "home" page');
      expect(text!.headers['content-type']).toBe('text/plain; charset=utf-8');

      await notifyWebhook(channel('WEBHOOK', { name: 'Hook', url: `${receiver.url}/get`, method: 'GET', queryParameters: [{ key: 'check', value: '{{CHECK_NAME}}' }] }), alert(), ctx);
      const [get] = receiver.to('/get');
      expect(get).toMatchObject({ method: 'GET', body: '', query: { check: 'Shop "home" page' } });
    });

    it('fails without retrying when the template cannot render or the URL it builds is not http(s)', async () => {
      const broken = await notifyWebhook(channel('WEBHOOK', { name: 'Hook', url: `${receiver.url}/x`, template: '{{#each}}' }), alert(), ctx);
      expect(broken).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining('template') });
      const notHttp = await notifyWebhook(channel('WEBHOOK', { name: 'Hook', url: '{{ENVIRONMENT}}://x' }), alert(), ctx);
      expect(notHttp).toMatchObject({ ok: false, retryable: false });
    });

    it('reports the status and the start of the answer when the receiver refuses the delivery', async () => {
      receiver.answer('/refused', 503);
      const result = await notifyWebhook(channel('WEBHOOK', { name: 'Hook', url: `${receiver.url}/refused` }), alert(), ctx);
      expect(result).toMatchObject({ ok: false, code: 'RECEIVER_REJECTED', status: 503, error: expect.stringContaining('HTTP 503'), response: '{"status":"error"}' });
    });

    it('reports a receiver that never answers as a timeout', async () => {
      receiver.hang('/hang');
      const result = await notifyWebhook(channel('WEBHOOK', { name: 'Hook', url: `${receiver.url}/hang` }), alert(), { ...ctx, timeoutMs: 200 });
      expect(result).toMatchObject({ ok: false, code: 'TIMEOUT', error: expect.stringContaining('within 200 ms') });
      expect(result.status).toBeUndefined();
    });
  });

  describe('SLACK and SLACK_APP', () => {
    it('posts the incoming-webhook JSON with the title as text and the facts as an attachment', async () => {
      const result = await notifySlack(channel('SLACK', { url: `${receiver.url}/slack`, channel: '#alerts' }), alert('ALERT_DEGRADED'), ctx);
      expect(result.ok).toBe(true);
      const [req] = receiver.to('/slack');
      expect(req!.headers['content-type']).toBe('application/json');
      expect(req!.json).toMatchObject({
        text: '"Shop "home" page" is degraded',
        channel: '#alerts',
        attachments: [{ color: 'warning', title: 'Shop "home" page', text: 'Assertion failed: STATUS_CODE EQUALS 200 (actual: 503)' }],
      });
      expect(req!.json.attachments[0].fields).toContainEqual({ title: 'Location', value: 'eu-west-1', short: true });
    });

    it('fails a Slack app channel without a webhook URL, and delivers one that has it like SLACK', async () => {
      const without = await notifySlackApp(channel('SLACK_APP', { channel: 'C0123' }), alert(), ctx);
      expect(without).toEqual({ ok: false, retryable: false, code: 'CHANNEL_NOT_CONFIGURED', error: expect.stringContaining('SLACK_APP needs the Slack app integration, not available in self-hosted Lookout') });
      const withUrl = await notifySlackApp(channel('SLACK_APP', { channel: 'C0123', url: `${receiver.url}/slack-app` }), alert(), ctx);
      expect(withUrl.ok).toBe(true);
      expect(receiver.to('/slack-app')[0]!.json).toMatchObject({ text: '"Shop "home" page" has failed', channel: 'C0123' });
    });

    it('delivers a Slack app channel of the CLI\'s shape to each of its slackChannels through the webhook URL', async () => {
      const sent = await notifySlackApp(channel('SLACK_APP', { slackChannels: ['#ops', '@alice'], url: `${receiver.url}/slack-app-many` }), alert(), ctx);
      expect(sent.ok).toBe(true);
      expect(receiver.to('/slack-app-many').map((r) => r.json.channel)).toEqual(['#ops', '@alice']);
    });
    it('links the check (title) and the result (a field) in the console when the alert has its links', async () => {
      const linked = alert('ALERT_FAILURE', { checkUrl: 'https://lookout.test/checks/c', resultUrl: 'https://lookout.test/checks/c?result=r' });
      expect((await notifySlack(channel('SLACK', { url: `${receiver.url}/slack-links` }), linked, ctx)).ok).toBe(true);
      const [attachment] = receiver.to('/slack-links')[0]!.json.attachments;
      expect(attachment.title_link).toBe('https://lookout.test/checks/c');
      expect(attachment.fields).toContainEqual({ title: 'Result', value: '<https://lookout.test/checks/c?result=r|Open the result>', short: false });
    });
  });

  describe('PAGERDUTY', () => {
    it('triggers an Events API v2 event with the service key and a dedup key per check, and resolves it on recovery', async () => {
      const pd = channel('PAGERDUTY', { account: 'acme', serviceName: 'Web', serviceKey: 'routing-key-123' });
      expect((await notifyPagerDuty(pd, alert('ALERT_FAILURE'), ctx)).ok).toBe(true);
      expect((await notifyPagerDuty(pd, alert('ALERT_RECOVERY'), ctx)).ok).toBe(true);
      const [trigger, resolve] = receiver.to('/pagerduty/v2/enqueue');
      expect(trigger!.json).toMatchObject({
        routing_key: 'routing-key-123', event_action: 'trigger', dedup_key: `lookout-${CHECK_ID}`,
        payload: { summary: '"Shop "home" page" has failed', source: 'eu-west-1', severity: 'critical', component: 'Shop "home" page', group: 'Shop' },
      });
      expect(resolve!.json).toEqual({ routing_key: 'routing-key-123', event_action: 'resolve', dedup_key: `lookout-${CHECK_ID}` });
    });

    it('keeps certificate alerts in an incident of their own, at warning severity', async () => {
      await notifyPagerDuty(channel('PAGERDUTY', { serviceKey: 'k' }), alert('ALERT_SSL', { sslDaysRemaining: 3 }), ctx);
      const last = receiver.to('/pagerduty/v2/enqueue').at(-1)!;
      expect(last.json).toMatchObject({ dedup_key: `lookout-${CHECK_ID}-ssl`, payload: { severity: 'warning' } });
    });

    it('links the check and the result on the incident', async () => {
      const linked = alert('ALERT_FAILURE', { checkUrl: 'https://lookout.test/checks/c', resultUrl: 'https://lookout.test/checks/c?result=r' });
      await notifyPagerDuty(channel('PAGERDUTY', { serviceKey: 'k' }), linked, ctx);
      expect(receiver.to('/pagerduty/v2/enqueue').at(-1)!.json.payload.links).toEqual([
        { href: 'https://lookout.test/checks/c', text: 'Shop "home" page in Lookout' }, { href: 'https://lookout.test/checks/c?result=r', text: 'The result in Lookout' },
      ]);
    });
  });

  describe('OPSGENIE', () => {
    it('creates an alert with the GenieKey, alias and priority in the channel region, and closes it on recovery', async () => {
      const genie = channel('OPSGENIE', { name: 'Genie', apiKey: 'genie-key', region: 'EU', priority: 'P2' });
      expect((await notifyOpsgenie(genie, alert('ALERT_FAILURE'), ctx)).ok).toBe(true);
      expect((await notifyOpsgenie(genie, alert('ALERT_RECOVERY'), ctx)).ok).toBe(true);
      const [create] = receiver.to('/opsgenie-eu/v2/alerts');
      expect(create!.headers.authorization).toBe('GenieKey genie-key');
      expect(create!.json).toMatchObject({ message: '"Shop "home" page" has failed', alias: `lookout-${CHECK_ID}`, priority: 'P2', source: 'Lookout', tags: ['prod', 'shop'] });
      const [close] = receiver.to(`/opsgenie-eu/v2/alerts/lookout-${CHECK_ID}/close`);
      expect(close).toMatchObject({ method: 'POST', query: { identifierType: 'alias' } });
      expect(close!.headers.authorization).toBe('GenieKey genie-key');
    });

    it('uses the US endpoint for US channels', async () => {
      await notifyOpsgenie(channel('OPSGENIE', { name: 'Genie', apiKey: 'us-key', region: 'US', priority: 'P5' }), alert('ALERT_DEGRADED'), ctx);
      expect(receiver.to('/opsgenie-us/v2/alerts')[0]!.json).toMatchObject({ priority: 'P5' });
    });
  });

  describe('SMS and CALL', () => {
    it('post {to, message, type} to the configured provider webhooks', async () => {
      expect((await notifySms(channel('SMS', { name: 'On call', number: '+31612345678' }), alert(), ctx)).ok).toBe(true);
      expect((await notifyCall(channel('CALL', { name: 'On call', number: '+14155550100' }), alert(), ctx)).ok).toBe(true);
      const [sms] = receiver.to('/sms');
      expect(sms!.json).toMatchObject({ to: '+31612345678', type: 'SMS', message: expect.stringContaining('"Shop "home" page" has failed') });
      expect(sms!.json.message.length).toBeLessThanOrEqual(480);
      expect(receiver.to('/call')[0]!.json).toEqual({ to: '+14155550100', type: 'CALL', message: '"Shop "home" page" has failed' });
    });

    it.each([
      ['SMS', notifySms, 'SMS_PROVIDER_URL not configured'],
      ['CALL', notifyCall, 'CALL_PROVIDER_URL not configured'],
    ] as const)('fails %s deliveries with a clear error when no provider is configured', async (type, notify, message) => {
      const result = await notify(channel(type, { name: 'x', number: '+31612345678' }), alert(), { ...ctx, smsProviderUrl: undefined, callProviderUrl: undefined });
      expect(result).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining(message) });
    });
  });

  describe('EMAIL', () => {
    let smtp: SmtpReceiver;
    let smtpUrl: string;
    let mails: ReceivedMail[] = [];

    beforeAll(async () => {
      smtp = await startSmtpReceiver();
      smtpUrl = smtp.url;
      mails = smtp.mails;
    });
    afterAll(async () => smtp?.close());

    it('sends the alert through the SMTP server with its title as subject and its facts as body', async () => {
      const plain = alert('ALERT_FAILURE', { title: 'Shop home page has failed' });
      const result = await notifyEmail(channel('EMAIL', { address: 'ops@example.test' }), plain, { ...ctx, smtpUrl });
      expect(result).toMatchObject({ ok: true, status: 250 });
      const [mail] = mails;
      expect(mail).toMatchObject({ from: 'alerts@lookout.test', to: ['ops@example.test'] });
      expect(mail!.raw).toMatch(/^Subject: Shop home page has failed\r?$/m);
      expect(mail!.raw).toContain('Location: eu-west-1');
      expect(mail!.raw).toContain('Error: Assertion failed: STATUS_CODE EQUALS 200 (actual: 503)');
      expect(mail!.raw).toMatch(/^X-Lookout-Alert-Type: ALERT_FAILURE/m);
    });

    it('fails with "SMTP_URL not configured" when there is no SMTP server, sending nothing', async () => {
      const before = mails.length;
      const result = await notifyEmail(channel('EMAIL', { address: 'ops@example.test' }), alert(), { ...ctx, smtpUrl: undefined });
      expect(result).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining('SMTP_URL not configured') });
      expect(mails.length).toBe(before);
    });

    it('does not retry an address the server rejects, and does retry a server it cannot reach', async () => {
      const rejected = await notifyEmail(channel('EMAIL', { address: 'nobody@rejected.test' }), alert(), { ...ctx, smtpUrl });
      expect(rejected).toMatchObject({ ok: false, code: 'RECEIVER_REJECTED', status: 550, retryable: false });
      const unreachable = await notifyEmail(channel('EMAIL', { address: 'ops@example.test' }), alert(), { ...ctx, smtpUrl: 'smtp://127.0.0.1:1' });
      expect(unreachable).toMatchObject({ ok: false, code: 'UNREACHABLE', retryable: true });
    });
  });

  it('has a notifier for every alert channel type', () => {
    expect(Object.keys(NOTIFIERS).sort()).toEqual(['CALL', 'EMAIL', 'OPSGENIE', 'PAGERDUTY', 'SLACK', 'SLACK_APP', 'SMS', 'WEBHOOK']);
  });
});
