import { request } from 'undici';
import type { NotifierContext, NotifyResult } from './notifier.js';

/** Longest part of a receiver's answer that is kept. */
const MAX_RESPONSE = 1000;

/** One HTTP request of a delivery. */
export interface HttpDelivery {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** JSON request headers plus `extra`. */
export function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', 'user-agent': 'Lookout-Alerts/1', ...extra };
}

/**
 * Sends one request with the context's time limit and never throws: a 2xx answer is `ok`, any
 * other answer or a network failure is not, with a message saying which.
 */
export async function sendHttp(delivery: HttpDelivery, ctx: NotifierContext): Promise<NotifyResult> {
  let url: URL;
  try {
    url = new URL(delivery.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    return { ok: false, error: `"${delivery.url}" is not an http(s) URL`, retryable: false, code: 'INVALID_URL' };
  }
  const signal = AbortSignal.timeout(ctx.timeoutMs);
  try {
    const res = await request(url, {
      method: (delivery.method ?? 'POST') as 'POST',
      headers: delivery.headers,
      body: delivery.body,
      signal,
      dispatcher: ctx.dispatcher,
      headersTimeout: ctx.timeoutMs,
      bodyTimeout: ctx.timeoutMs,
    });
    const text = (await res.body.text()).slice(0, MAX_RESPONSE);
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode, response: text };
    return { ok: false, code: 'RECEIVER_REJECTED', status: res.statusCode, response: text, error: `${url.host} answered HTTP ${res.statusCode}${text ? `: ${text.slice(0, 200)}` : ''}` };
  } catch (err) {
    if (signal.aborted) return { ok: false, code: 'TIMEOUT', error: `no answer from ${url.host} within ${ctx.timeoutMs} ms` };
    const e = err as { code?: string; message?: string };
    return { ok: false, code: 'UNREACHABLE', error: `request to ${url.host} failed: ${e.code ? `${e.code} ` : ''}${e.message ?? String(err)}`.trim() };
  }
}
