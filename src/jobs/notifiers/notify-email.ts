import nodemailer from 'nodemailer';
import { alertText } from '../../domain/alert-message.js';
import { configurationFailure, type Notifier } from './notifier.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * EMAIL: one message to `config.address` through the SMTP server of SMTP_URL, from SMTP_FROM;
 * the subject is the alert title, the body its facts (text and HTML). Without SMTP_URL the
 * delivery fails: nothing pretends to have sent mail. SMTP 4xx replies and network failures are
 * retried, 5xx replies (a rejected address) are not.
 */
export const notifyEmail: Notifier = async (channel, alert, ctx) => {
  if (!ctx.smtpUrl) return configurationFailure('SMTP_URL not configured: set it to the SMTP server that sends alert emails');
  const transport = nodemailer.createTransport({
    url: ctx.smtpUrl,
    connectionTimeout: ctx.timeoutMs,
    greetingTimeout: ctx.timeoutMs,
    socketTimeout: ctx.timeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const text = alertText(alert);
  try {
    const info = await transport.sendMail({
      from: ctx.smtpFrom,
      to: String(channel.config.address ?? ''),
      subject: alert.title,
      text,
      html: `<pre style="font-family: sans-serif">${escapeHtml(text)}</pre>`,
      headers: { 'X-Lookout-Alert-Type': alert.alertType, 'X-Lookout-Check-Id': alert.checkId },
    });
    const response = String(info.response ?? '');
    const code = Number(/^\d{3}/.exec(response)?.[0]);
    return { ok: true, ...(Number.isFinite(code) ? { status: code } : {}), response: response.slice(0, 1000) };
  } catch (err) {
    const e = err as { responseCode?: number; code?: string; message?: string };
    const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
    return {
      ok: false,
      ...(code !== undefined ? { status: code } : {}),
      code: code !== undefined ? 'RECEIVER_REJECTED' : e.code === 'ETIMEDOUT' ? 'TIMEOUT' : 'UNREACHABLE',
      error: `sending mail failed: ${e.code ? `${e.code} ` : ''}${e.message ?? String(err)}`,
      retryable: code === undefined || code < 500,
    };
  } finally {
    transport.close();
  }
};
