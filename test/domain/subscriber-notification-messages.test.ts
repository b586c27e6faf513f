import { describe, expect, it } from 'vitest';
import {
  label, leadTime, maskAddress, notificationEvent, notificationMail, notificationTitle, notificationWebhookBody,
  type IncidentNotificationFacts, type MaintenanceNotificationFacts,
} from '../../src/domain/subscriber-notification-messages.js';

const page = { id: 'page-1', name: 'Acme <status>', url: 'acme' };
const links = { detailUrl: 'https://status.test/status/acme/incidents/i-1?a=1&b=2', unsubscribeUrl: 'https://status.test/status/acme/subscriptions/unsubscribe?token=t' };

const incident: IncidentNotificationFacts = {
  subjectType: 'INCIDENT',
  kind: 'UPDATE',
  incident: { id: 'i-1', name: 'Checkout\nis down', severity: 'MAJOR' },
  update: { id: 'u-1', description: 'Payments <fail>\nWe are on it', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-03-01T10:15:30.000Z' },
  services: [{ id: 's-1', name: 'Checkout' }, { id: 's-2', name: 'API' }],
};
const maintenanceUpdate: MaintenanceNotificationFacts = {
  subjectType: 'MAINTENANCE',
  kind: 'UPDATE',
  maintenance: { id: 'm-1', maintenanceWindowId: 7, name: 'Database upgrade', startsAt: '2026-03-02T22:00:00.000Z', endsAt: '2026-03-03T00:00:00.000Z' },
  update: { id: 'mu-1', description: 'Started', status: 'IN_PROGRESS', previousStatus: 'SCHEDULED', created_at: '2026-03-02T22:00:05.000Z' },
  reminder: null,
  services: [],
  affectsAllServices: true,
};
const reminder: MaintenanceNotificationFacts = { ...maintenanceUpdate, kind: 'REMINDER', update: null, reminder: { id: 'r-1', minutesBefore: 1500 }, affectsAllServices: false, services: [{ id: 's-1', name: 'Checkout' }] };

describe('subscriber notification messages', () => {
  it.each([
    ['INVESTIGATING', 'Investigating'],
    ['IN_PROGRESS', 'In progress'],
    ['MAJOR', 'Major'],
  ])('labels %s as "%s"', (value, expected) => {
    expect(label(value)).toBe(expected);
  });

  it.each([
    [60, '1 hour'],
    [90, '1 hour 30 minutes'],
    [120, '2 hours'],
    [1440, '1 day'],
    [1500, '1 day 1 hour'],
    [10_080, '7 days'],
    [0, '0 minutes'],
  ])('says a lead time of %i minutes as "%s"', (minutes, expected) => {
    expect(leadTime(minutes)).toBe(expected);
  });

  it.each([
    ['an incident update', incident, 'Checkout is down: Investigating', 'incidentUpdate'],
    ['a maintenance update', maintenanceUpdate, 'Maintenance: Database upgrade: In progress', 'maintenanceUpdate'],
    ['a maintenance reminder', reminder, 'Scheduled maintenance: Database upgrade starts in 1 day 1 hour', 'maintenanceReminder'],
  ] as const)('titles %s on one line and names its event', (_what, facts, title, event) => {
    expect(notificationTitle(facts)).toBe(title);
    expect(notificationEvent(facts)).toBe(event);
  });

  it('mails an incident update with its facts, the link to follow it and an unsubscribe link and headers, HTML escaped', () => {
    const mail = notificationMail('ops@example.test', page, incident, links);
    expect(mail.to).toBe('ops@example.test');
    expect(mail.subject).toBe('[Acme <status>] Checkout is down: Investigating');
    expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${links.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(mail.text).toContain('Status: Investigating\nSeverity: Major\nAffected services: Checkout, API\nPosted: 2026-03-01 10:15 UTC');
    expect(mail.text).toContain('Payments <fail>\nWe are on it');
    expect(mail.text).toContain(`Follow the incident: ${links.detailUrl}`);
    expect(mail.text).toContain(`Unsubscribe: ${links.unsubscribeUrl}`);
    expect(mail.html).toContain('Payments &#60;fail&#62;<br>');
    expect(mail.html).toContain('<strong>Acme &#60;status&#62;</strong>');
    expect(mail.html).toContain('href="https://status.test/status/acme/incidents/i-1?a=1&#38;b=2"');
    expect(mail.html).not.toContain('<fail>');
  });

  it('mails a maintenance update with its schedule, and a reminder without a status', () => {
    const update = notificationMail('ops@example.test', page, maintenanceUpdate, links);
    expect(update.text).toContain('Status: In progress\nScheduled: 2026-03-02 22:00 UTC to 2026-03-03 00:00 UTC\nAffected services: All services');
    expect(update.text).toContain('Follow the maintenance');
    const reminded = notificationMail('ops@example.test', page, reminder, links);
    expect(reminded.subject).toBe('[Acme <status>] Scheduled maintenance: Database upgrade starts in 1 day 1 hour');
    expect(reminded.text).not.toContain('Status:');
    expect(reminded.text).toContain('Affected services: Checkout');
  });

  it('writes webhook bodies that name the notification, the subscriber, the page and what happened', () => {
    const envelope = { notificationId: 'n-1', subscriptionId: 'sub-1' };
    expect(JSON.parse(notificationWebhookBody(envelope, page, incident, links))).toEqual({
      type: 'incidentUpdate', notificationId: 'n-1', subscriptionId: 'sub-1', statusPage: page,
      incident: { ...incident.incident, services: incident.services, url: links.detailUrl },
      incidentUpdate: incident.update,
      unsubscribeUrl: links.unsubscribeUrl,
    });
    expect(JSON.parse(notificationWebhookBody(envelope, page, maintenanceUpdate, links))).toEqual({
      type: 'maintenanceUpdate', notificationId: 'n-1', subscriptionId: 'sub-1', statusPage: page,
      maintenance: { ...maintenanceUpdate.maintenance, services: [], affectsAllServices: true, url: links.detailUrl },
      maintenanceUpdate: maintenanceUpdate.update,
      unsubscribeUrl: links.unsubscribeUrl,
    });
    const reminded = JSON.parse(notificationWebhookBody(envelope, page, reminder, links));
    expect(reminded).toMatchObject({ type: 'maintenanceReminder', reminder: { id: 'r-1', minutesBefore: 1500 } });
    expect(reminded).not.toHaveProperty('maintenanceUpdate');
  });

  it.each([
    ['EMAIL', 'ops@example.test', 'o***@example.test'],
    ['EMAIL', 'not-an-address', '***'],
    ['WEBHOOK', 'https://hooks.example.test/T000/B000/secret-token?key=1', 'https://hooks.example.test/***'],
    ['WEBHOOK', 'nonsense', '***'],
  ])('masks the %s address %s as %s for logs', (channel, address, masked) => {
    expect(maskAddress(channel, address)).toBe(masked);
  });
});
