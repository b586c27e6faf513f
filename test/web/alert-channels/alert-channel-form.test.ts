import { describe, expect, it } from 'vitest';
import { CHANNEL_FORM_FIELDS, channelFormProblems, channelFormValues, channelInput, channelSummary, EMPTY_CHANNEL_FORM } from '../../../web/src/alert-channels/alert-channel-form.js';
import { fieldErrors } from '../../../web/src/shared/user-errors.js';

const notify = { sendFailure: true, sendRecovery: true, sendDegraded: false, sslExpiry: false, autoSubscribe: false };

describe('the alert channel form', () => {
  it('sends an email channel\'s address', () => {
    expect(channelInput({ ...EMPTY_CHANNEL_FORM, address: ' ops@example.test ' })).toEqual({ config: { address: 'ops@example.test' }, ...notify });
  });

  it('sends a webhook secret when typed and leaves it out when empty, so an edit keeps the stored one', () => {
    const webhook = { ...EMPTY_CHANNEL_FORM, type: 'WEBHOOK' as const, name: 'Ops', url: 'https://hooks.example.test/x' };
    expect(channelInput({ ...webhook, webhookSecret: 'sh-secret' }).config).toEqual({ name: 'Ops', url: 'https://hooks.example.test/x', method: 'POST', template: undefined, webhookSecret: 'sh-secret' });
    expect(channelInput(webhook, { editing: true }).config).not.toHaveProperty('webhookSecret', expect.anything());
  });

  it('keeps a Slack channel\'s stored URL (a secret) when an edit leaves it empty', () => {
    const slack = { ...EMPTY_CHANNEL_FORM, type: 'SLACK' as const, channel: '#ops' };
    expect(channelInput(slack, { editing: true })).not.toHaveProperty('config');
    expect(channelInput({ ...slack, url: 'https://hooks.slack.test/T/B/x' }, { editing: true }).config).toEqual({ url: 'https://hooks.slack.test/T/B/x', channel: '#ops' });
  });

  it('never fills a secret from a stored channel, whatever the API returned', () => {
    const stored = { ...notify, type: 'SLACK', config: { url: 'https://hooks.slack.test/T/B/secret', channel: '#ops' } };
    expect(channelFormValues(stored)).toMatchObject({ type: 'SLACK', url: '', channel: '#ops' });
    const opsgenie = channelFormValues({ ...notify, type: 'OPSGENIE', config: { name: 'On call', apiKey: '********abcd', region: 'EU', priority: 'P1' } });
    expect(opsgenie).toMatchObject({ name: 'On call', apiKey: '', region: 'EU', priority: 'P1' });
    expect(channelFormValues({ ...notify, type: 'CARRIER_PIGEON', config: {} })).toBeNull();
  });

  it('summarizes a channel without its secrets', () => {
    expect(channelSummary({ type: 'WEBHOOK', config: { name: 'Ops', method: 'POST', url: 'https://h.test', webhookSecret: 'x' } })).toBe('Ops · POST · https://h.test');
    expect(channelSummary({ type: 'SLACK', config: { url: 'https://hooks.slack.test/secret', channel: '#ops' } })).toBe('#ops');
  });

  it('puts config errors on the config fields', () => {
    expect(fieldErrors([{ field: 'config.address', code: 'BAD_USER_INPUT', message: 'must be an email address' }], CHANNEL_FORM_FIELDS.EMAIL).byField)
      .toEqual({ 'config.address': ['Address must be an email address'] });
  });
});

describe('the alert channel form\'s own checks', () => {
  it('asks for a Slack URL again only when the Slack channel changes on edit', () => {
    const stored = { ...EMPTY_CHANNEL_FORM, type: 'SLACK' as const, channel: '#ops' };
    expect(channelFormProblems({ ...stored, sendDegraded: true }, stored)).toEqual({});
    expect(Object.keys(channelFormProblems({ ...stored, channel: '#oncall' }, stored))).toEqual(['config.url']);
    expect(channelFormProblems({ ...stored, channel: '#oncall', url: 'https://hooks.slack.test/x' }, stored)).toEqual({});
    expect(channelFormProblems({ ...stored, channel: '#oncall' }, null)).toEqual({});
  });
});
