import nodemailer from 'nodemailer';
import type { SubscriptionMail } from '../domain/status-page-subscription-messages.js';

/** How one mail went. */
export type MailOutcome = { ok: true } | { ok: false; error: string };

/** Sends mails to subscribers, one outcome per mail in the same order; never throws for a refused mail. */
export type SendMails = (mails: readonly SubscriptionMail[]) => Promise<MailOutcome[]>;

/** Where subscriber mails go out: the SMTP server of SMTP_URL, from SMTP_FROM. */
export interface SmtpOptions {
  smtpUrl: string;
  smtpFrom: string;
  /** Time limit of connecting, the greeting and each socket wait, in ms. */
  timeoutMs: number;
}

/**
 * A SendMails over SMTP: one connection per batch (a bulk subscription may mail a hundred
 * addresses), closed when the batch is done, so nothing is held between calls.
 */
export function smtpSendMails({ smtpUrl, smtpFrom, timeoutMs }: SmtpOptions): SendMails {
  return async (mails) => {
    if (mails.length === 0) return [];
    const transport = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 1,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    } as Parameters<typeof nodemailer.createTransport>[0]);
    try {
      const outcomes: MailOutcome[] = [];
      for (const mail of mails) {
        try {
          await transport.sendMail({ from: smtpFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers });
          outcomes.push({ ok: true });
        } catch (err) {
          const e = err as { code?: string; message?: string };
          outcomes.push({ ok: false, error: `sending mail failed: ${e.code ? `${e.code} ` : ''}${e.message ?? String(err)}` });
        }
      }
      return outcomes;
    } finally {
      transport.close();
    }
  };
}
