import Handlebars from 'handlebars';
import { defaultWebhookBody, templateVariables } from '../../domain/alert-message.js';
import { SIGNATURE_HEADERS, webhookSignature } from '../../domain/webhook-signature.js';
import { configurationFailure, type Notifier } from './notifier.js';
import { sendHttp } from './send-http.js';

/**
 * Templates render raw text (no HTML escaping: most bodies are JSON); `{{json X}}` writes X as a
 * JSON value, quotes and escapes included, for values that may contain quotes.
 */
const handlebars = Handlebars.create();
handlebars.registerHelper('json', (value: unknown) => new handlebars.SafeString(JSON.stringify(value ?? null)));

const compiled = new Map<string, Handlebars.TemplateDelegate>();
const MAX_CACHED = 500;

function render(template: string, variables: Record<string, unknown>): string {
  let fn = compiled.get(template);
  if (!fn) {
    fn = handlebars.compile(template, { noEscape: true });
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(template, fn);
  }
  return fn(variables);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * WEBHOOK: `config.method` (POST by default) to `config.url`. The URL, header values, query
 * parameters and the body are Handlebars templates over templateVariables (the account's
 * variables by key included); without a template the body is defaultWebhookBody. GET and HEAD
 * send no body. Content-Type is the one the headers set, else application/json when the body is
 * JSON, else text/plain. With a webhookSecret, `x-lookout-signature` and `x-checkly-signature`
 * carry the hex HMAC-SHA256 of the exact body sent (of the empty string for GET and HEAD).
 */
export const notifyWebhook: Notifier = async (channel, alert, ctx) => {
  const c = channel.config;
  const method = String(c.method ?? 'POST').toUpperCase();
  const variables = templateVariables(alert, ctx.variables);
  let url: URL;
  let body: string;
  const headers: Record<string, string> = { 'user-agent': 'Lookout-Alerts/1' };
  try {
    url = new URL(render(String(c.url ?? ''), variables));
    for (const p of (c.queryParameters ?? []) as { key: string; value: string }[]) {
      if (p.key) url.searchParams.append(render(p.key, variables), render(p.value ?? '', variables));
    }
    for (const h of (c.headers ?? []) as { key: string; value: string }[]) {
      if (h.key) headers[h.key.toLowerCase()] = render(h.value ?? '', variables);
    }
    body = BODYLESS.has(method) ? '' : typeof c.template === 'string' && c.template.trim() !== '' ? render(c.template, variables) : defaultWebhookBody(alert);
  } catch (err) {
    return configurationFailure(`the webhook template could not be rendered: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  if (!BODYLESS.has(method) && !headers['content-type']) headers['content-type'] = isJson(body) ? 'application/json' : 'text/plain; charset=utf-8';
  if (typeof c.webhookSecret === 'string' && c.webhookSecret !== '') {
    const signature = webhookSignature(c.webhookSecret, body);
    for (const name of SIGNATURE_HEADERS) headers[name] = signature;
  }
  return sendHttp({ url: url.toString(), method, headers, body: BODYLESS.has(method) ? undefined : body }, ctx);
};
