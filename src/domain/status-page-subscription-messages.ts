/** What a subscriber's messages name of the page. */
export interface SubscribedPage {
  id: string;
  name: string;
  url: string;
}

/** The links a confirmation carries. */
export interface ConfirmationLinks {
  confirmUrl: string;
  unsubscribeUrl: string;
}

/** A mail, ready for the SMTP sender. */
export interface SubscriptionMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
/** A page name on one line (a subject is a header: a line break there would end it). */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Headers that let mail clients offer "unsubscribe" and unsubscribe in one POST (RFC 2369, RFC 8058);
 * every mail to a subscriber carries them.
 */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The double opt-in mail to a new EMAIL subscriber. */
export function confirmationMail(to: string, page: SubscribedPage, links: ConfirmationLinks): SubscriptionMail {
  const name = oneLine(page.name);
  const text = [
    `Someone, hopefully you, asked to receive the updates of the status page "${name}" at this address.`,
    '',
    `Confirm the subscription: ${links.confirmUrl}`,
    '',
    'Nothing is sent to you until you confirm; if you did not ask for this, ignore this mail.',
    `Unsubscribe: ${links.unsubscribeUrl}`,
  ].join('\n');
  const html = [
    `<p>Someone, hopefully you, asked to receive the updates of the status page <strong>${escapeHtml(name)}</strong> at this address.</p>`,
    `<p><a href="${escapeHtml(links.confirmUrl)}">Confirm the subscription</a></p>`,
    '<p>Nothing is sent to you until you confirm; if you did not ask for this, ignore this mail.</p>',
    `<p><a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe</a></p>`,
  ].join('\n');
  return { to, subject: `Confirm your subscription to ${name}`, text, html, headers: unsubscribeHeaders(links.unsubscribeUrl) };
}

/** The body of the signed POST that asks a new WEBHOOK subscriber to confirm. */
export function confirmationWebhookBody(subscriptionId: string, page: SubscribedPage, links: ConfirmationLinks): string {
  return JSON.stringify({
    type: 'subscriptionConfirmation',
    subscriptionId,
    statusPage: { id: page.id, name: page.name, url: page.url },
    confirmUrl: links.confirmUrl,
    unsubscribeUrl: links.unsubscribeUrl,
  });
}

/** A form a page may carry: one button that POSTs to `action`. */
export interface PageForm {
  action: string;
  button: string;
}

/** A small self-contained HTML page (no script, nothing loaded from elsewhere) for a subscriber's link. */
export function subscriptionPage(title: string, message: string, form?: PageForm): string {
  const body = form
    ? `<form method="post" action="${escapeHtml(form.action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">`
      + `<button type="submit">${escapeHtml(form.button)}</button></form>`
    : '';
  return '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
    + '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">'
    + `<title>${escapeHtml(title)}</title>`
    + '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#212930}'
    + 'button{font:inherit;padding:.5rem 1rem;cursor:pointer}</style></head>'
    + `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${body}</main></body></html>\n`;
}
