/** Alert channel types, as the API names them. */
export const CHANNEL_TYPES = ['EMAIL', 'WEBHOOK', 'SLACK', 'SLACK_APP', 'SMS', 'CALL', 'PAGERDUTY', 'OPSGENIE'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  EMAIL: 'Email', WEBHOOK: 'Webhook', SLACK: 'Slack (incoming webhook)', SLACK_APP: 'Slack app', SMS: 'SMS', CALL: 'Phone call', PAGERDUTY: 'PagerDuty', OPSGENIE: 'Opsgenie',
};

export function isChannelType(type: string): type is ChannelType {
  return (CHANNEL_TYPES as readonly string[]).includes(type);
}

/** Config fields that are secrets: write-only, never filled from a stored channel; left empty on edit, the stored one is kept. */
export const SECRET_FIELDS = ['url', 'webhookSecret', 'serviceKey', 'apiKey'] as const;

/** What the alert channel form holds, for every type. */
export interface ChannelFormValues {
  type: ChannelType;
  address: string;
  name: string;
  url: string;
  channel: string;
  method: string;
  template: string;
  webhookSecret: string;
  number: string;
  account: string;
  serviceName: string;
  serviceKey: string;
  apiKey: string;
  region: string;
  priority: string;
  sendFailure: boolean;
  sendRecovery: boolean;
  sendDegraded: boolean;
  sslExpiry: boolean;
  autoSubscribe: boolean;
}

export const EMPTY_CHANNEL_FORM: ChannelFormValues = {
  type: 'EMAIL', address: '', name: '', url: '', channel: '', method: 'POST', template: '', webhookSecret: '', number: '', account: '', serviceName: '', serviceKey: '',
  apiKey: '', region: 'US', priority: 'P3', sendFailure: true, sendRecovery: true, sendDegraded: false, sslExpiry: false, autoSubscribe: false,
};

/** Whether a type's `url` is a secret (a Slack incoming-webhook URL carries its token); a webhook's URL is not. */
export function urlIsSecret(type: ChannelType): boolean {
  return type === 'SLACK';
}

const NOTIFY_FIELDS = ['sendFailure', 'sendRecovery', 'sendDegraded', 'sslExpiry', 'sslExpiryThreshold', 'autoSubscribe'];

/** The form fields of each type by the REST paths userErrors name (`config.address`). */
export const CHANNEL_FORM_FIELDS: Record<ChannelType, readonly string[]> = {
  EMAIL: ['config.address', ...NOTIFY_FIELDS],
  WEBHOOK: ['config.name', 'config.url', 'config.method', 'config.template', 'config.webhookSecret', ...NOTIFY_FIELDS],
  SLACK: ['config.url', 'config.channel', ...NOTIFY_FIELDS],
  SLACK_APP: ['config.channel', 'config.url', ...NOTIFY_FIELDS],
  SMS: ['config.name', 'config.number', ...NOTIFY_FIELDS],
  CALL: ['config.name', 'config.number', ...NOTIFY_FIELDS],
  PAGERDUTY: ['config.account', 'config.serviceName', 'config.serviceKey', ...NOTIFY_FIELDS],
  OPSGENIE: ['config.name', 'config.apiKey', 'config.region', 'config.priority', ...NOTIFY_FIELDS],
};

const optional = (text: string) => (text.trim() ? text.trim() : undefined);
/** A secret as typed; left out when empty, which on edit keeps the stored one. */
const secret = (text: string) => (text ? text : undefined);

/** The config input of the form's type. */
function configInput(v: ChannelFormValues, editing: boolean): Record<string, unknown> {
  switch (v.type) {
    case 'EMAIL': return { address: v.address.trim() };
    case 'WEBHOOK': return { name: v.name.trim(), url: v.url.trim(), method: v.method, template: optional(v.template), webhookSecret: secret(v.webhookSecret) };
    // The Slack URL is required by the input type: on edit, an empty one keeps the stored URL (config left out).
    case 'SLACK': return { url: editing ? secret(v.url.trim()) : v.url.trim(), channel: optional(v.channel) };
    case 'SLACK_APP': return { channel: v.channel.trim(), url: optional(v.url) };
    case 'SMS':
    case 'CALL': return { name: v.name.trim(), number: v.number.trim() };
    case 'PAGERDUTY': return { account: optional(v.account), serviceName: optional(v.serviceName), serviceKey: secret(v.serviceKey) };
    case 'OPSGENIE': return { name: v.name.trim(), apiKey: secret(v.apiKey), region: v.region, priority: v.priority };
  }
}

/** The input of the type's create/update mutation. Secrets left empty are not sent; on edit the API keeps the stored ones. */
export function channelInput(values: ChannelFormValues, options: { editing?: boolean } = {}): Record<string, unknown> {
  const editing = options.editing ?? false;
  const config = configInput(values, editing);
  // A Slack channel edited without a new URL cannot send a config (its url is required): the stored config stays.
  const keepConfig = values.type === 'SLACK' && editing && config.url === undefined;
  return {
    ...(keepConfig ? {} : { config }),
    sendFailure: values.sendFailure, sendRecovery: values.sendRecovery, sendDegraded: values.sendDegraded, sslExpiry: values.sslExpiry, autoSubscribe: values.autoSubscribe,
  };
}

/** A stored channel as the console reads it: config fields by name, secrets among them masked or absent. */
export interface StoredChannel {
  type: string;
  sendFailure: boolean;
  sendRecovery: boolean;
  sendDegraded: boolean;
  sslExpiry: boolean;
  autoSubscribe: boolean;
  config: Record<string, unknown>;
}

/** A stored channel's values as the form shows them. Secret fields stay empty ("leave empty to keep"), whatever the API returned. */
export function channelFormValues(channel: StoredChannel): ChannelFormValues | null {
  if (!isChannelType(channel.type)) return null;
  const values: ChannelFormValues = {
    ...EMPTY_CHANNEL_FORM, type: channel.type,
    sendFailure: channel.sendFailure, sendRecovery: channel.sendRecovery, sendDegraded: channel.sendDegraded, sslExpiry: channel.sslExpiry, autoSubscribe: channel.autoSubscribe,
  };
  for (const key of ['address', 'name', 'url', 'channel', 'method', 'template', 'number', 'account', 'serviceName', 'region', 'priority'] as const) {
    const value = channel.config[key];
    if (typeof value === 'string') values[key] = value;
  }
  if (urlIsSecret(channel.type)) values.url = '';
  return values;
}

/** One line saying where a channel delivers, without any secret. */
export function channelSummary(channel: { type: string; config: Record<string, unknown> }): string {
  const c = channel.config;
  const s = (key: string) => (typeof c[key] === 'string' ? (c[key] as string) : '');
  switch (channel.type) {
    case 'EMAIL': return s('address');
    case 'WEBHOOK': return [s('name'), s('method'), s('url')].filter(Boolean).join(' · ');
    case 'SLACK':
    case 'SLACK_APP': return s('channel') || 'Slack';
    case 'SMS':
    case 'CALL': return [s('name'), s('number')].filter(Boolean).join(' · ');
    case 'PAGERDUTY': return [s('account'), s('serviceName')].filter(Boolean).join(' · ') || 'PagerDuty';
    case 'OPSGENIE': return [s('name'), s('region'), s('priority')].filter(Boolean).join(' · ');
    default: return channel.type;
  }
}

/**
 * Problems the form finds before sending, by field: a Slack channel's config goes as a whole with its
 * (secret, required) URL, so changing the Slack channel of a stored Slack channel needs the URL again.
 */
export function channelFormProblems(values: ChannelFormValues, stored: ChannelFormValues | null): Record<string, string[]> {
  if (values.type === 'SLACK' && stored && !values.url.trim() && values.channel.trim() !== stored.channel.trim()) {
    return { 'config.url': ['Enter the webhook URL again to change the Slack channel: the stored one is never shown.'] };
  }
  return {};
}
