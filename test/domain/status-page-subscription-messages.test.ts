import { describe, expect, it } from 'vitest';
import { confirmationMail, confirmationWebhookBody, subscriptionPage } from '../../src/domain/status-page-subscription-messages.js';

const page = { id: 'p1', name: 'Acme <b>"status"</b>\nBcc: x@example.com', url: 'acme' };
const links = { confirmUrl: 'https://lookout.test/status/acme/subscriptions/confirm?token=c&x=1', unsubscribeUrl: 'https://lookout.test/status/acme/subscriptions/unsubscribe?token=u' };

describe('confirmationMail', () => {
  it('carries both links and the one-click unsubscribe headers, with the page name on one line and escaped in HTML', () => {
    const mail = confirmationMail('ops@example.com', page, links);
    expect(mail.to).toBe('ops@example.com');
    expect(mail.subject).toBe('Confirm your subscription to Acme <b>"status"</b> Bcc: x@example.com');
    expect(mail.text).toContain(links.confirmUrl);
    expect(mail.text).toContain(links.unsubscribeUrl);
    expect(mail.html).toContain('href="https://lookout.test/status/acme/subscriptions/confirm?token=c&#38;x=1"');
    expect(mail.html).not.toContain('<b>');
    expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${links.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});

describe('confirmationWebhookBody', () => {
  it('is JSON naming the subscription, the page and both links', () => {
    expect(JSON.parse(confirmationWebhookBody('s1', page, links))).toEqual({
      type: 'subscriptionConfirmation', subscriptionId: 's1', statusPage: { id: 'p1', name: page.name, url: 'acme' }, ...links,
    });
  });
});

describe('subscriptionPage', () => {
  it('escapes what it shows and posts its form back with the token', () => {
    const html = subscriptionPage('Unsubscribe from <x>?', 'a & b', { action: '?token=a"b', button: 'Go' });
    expect(html).toContain('<title>Unsubscribe from &#60;x&#62;?</title>');
    expect(html).toContain('<p>a &#38; b</p>');
    expect(html).toContain('<form method="post" action="?token=a&#34;b">');
    expect(html).not.toContain('<script');
    expect(subscriptionPage('Done', 'ok')).not.toContain('<form');
  });
});
