import { escapeHtml, unsubscribeHeaders, type SubscribedPage, type SubscriptionMail } from './status-page-subscription-messages.js';

/** A service a notification names. */
export interface NotifiedService {
  id: string;
  name: string;
}

/** What a message about an incident update says, as it was when the update was posted. */
export interface IncidentNotificationFacts {
  subjectType: 'INCIDENT';
  kind: 'UPDATE';
  incident: { id: string; name: string; severity: string };
  update: { id: string; description: string; status: string; publicIncidentUpdateDate: string };
  services: NotifiedService[];
}

/** What a message about a maintenance update or reminder says, as it was when it was posted or fell due. */
export interface MaintenanceNotificationFacts {
  subjectType: 'MAINTENANCE';
  kind: 'UPDATE' | 'REMINDER';
  maintenance: { id: string; maintenanceWindowId: number; name: string; startsAt: string; endsAt: string };
  /** The update (kind UPDATE). */
  update: { id: string; description: string; status: string; previousStatus: string | null; created_at: string } | null;
  /** The reminder (kind REMINDER): how long before the start it is sent. */
  reminder: { id: string; minutesBefore: number } | null;
  services: NotifiedService[];
  /** The window affects every service of its pages (statusPageVisibility.affectAllServices). */
  affectsAllServices: boolean;
}

export type SubscriberNotificationFacts = IncidentNotificationFacts | MaintenanceNotificationFacts;

/** The links a notification carries. */
export interface NotificationLinks {
  /** The incident's or the maintenance's page on the status page. */
  detailUrl: string;
  unsubscribeUrl: string;
}

/** What the webhook body's `type` and the `x-lookout-event` header say a notification is. */
export type NotificationEvent = 'incidentUpdate' | 'maintenanceUpdate' | 'maintenanceReminder';

/** A status or severity as people read it: IN_PROGRESS → "In progress". */
export function label(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A reminder's lead time in words: 60 → "1 hour", 1500 → "1 day 1 hour", 90 → "1 hour 30 minutes". */
export function leadTime(minutes: number): string {
  const parts = ([[Math.floor(minutes / 1440), 'day'], [Math.floor((minutes % 1440) / 60), 'hour'], [minutes % 60, 'minute']] as const)
    .filter(([n]) => n > 0)
    .map(([n, word]) => `${n} ${word}${n === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(' ') : '0 minutes';
}

/** A text on one line (a subject is a header: a line break there would end it). */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
/** An instant as messages show it: UTC, to the minute (status pages show every time in UTC). */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function notificationEvent(facts: SubscriberNotificationFacts): NotificationEvent {
  if (facts.subjectType === 'INCIDENT') return 'incidentUpdate';
  return facts.kind === 'REMINDER' ? 'maintenanceReminder' : 'maintenanceUpdate';
}

/** The subject of a notification mail, without the page's name. */
export function notificationTitle(facts: SubscriberNotificationFacts): string {
  if (facts.subjectType === 'INCIDENT') return `${oneLine(facts.incident.name)}: ${label(facts.update.status)}`;
  const name = oneLine(facts.maintenance.name);
  if (facts.reminder) return `Scheduled maintenance: ${name} starts in ${leadTime(facts.reminder.minutesBefore)}`;
  return `Maintenance: ${name}: ${label(facts.update?.status ?? 'SCHEDULED')}`;
}

/** The lines of facts a message shows, as [name, value] pairs, in order. */
function factLines(facts: SubscriberNotificationFacts): [string, string][] {
  const services = facts.services.map((s) => s.name).join(', ');
  if (facts.subjectType === 'INCIDENT') {
    return [
      ['Status', label(facts.update.status)],
      ['Severity', label(facts.incident.severity)],
      ['Affected services', services],
      ['Posted', utc(facts.update.publicIncidentUpdateDate)],
    ];
  }
  const lines: [string, string][] = [];
  if (facts.update) lines.push(['Status', label(facts.update.status)]);
  lines.push(['Scheduled', `${utc(facts.maintenance.startsAt)} to ${utc(facts.maintenance.endsAt)}`]);
  lines.push(['Affected services', facts.affectsAllServices ? 'All services' : services]);
  return lines.filter(([, value]) => value !== '');
}

const descriptionOf = (facts: SubscriberNotificationFacts) => facts.update?.description ?? '';

/** The mail that tells an EMAIL subscriber of `page` about an update or a reminder. */
export function notificationMail(to: string, page: SubscribedPage, facts: SubscriberNotificationFacts, links: NotificationLinks): SubscriptionMail {
  const pageName = oneLine(page.name);
  const title = notificationTitle(facts);
  const lines = factLines(facts);
  const description = descriptionOf(facts);
  const follow = facts.subjectType === 'INCIDENT' ? 'Follow the incident' : 'Follow the maintenance';
  const text = [
    title,
    '',
    ...lines.map(([name, value]) => `${name}: ${value}`),
    ...(description ? ['', description] : []),
    '',
    `${follow}: ${links.detailUrl}`,
    '',
    `You receive this because you subscribed to the updates of the status page "${pageName}".`,
    `Unsubscribe: ${links.unsubscribeUrl}`,
  ].join('\n');
  const html = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${lines.map(([name, value]) => `<strong>${escapeHtml(name)}:</strong> ${escapeHtml(value)}`).join('<br>\n')}</p>`,
    ...(description ? [`<p>${escapeHtml(description).replace(/\r?\n/g, '<br>\n')}</p>`] : []),
    `<p><a href="${escapeHtml(links.detailUrl)}">${follow}</a></p>`,
    `<p>You receive this because you subscribed to the updates of the status page <strong>${escapeHtml(pageName)}</strong>. `
      + `<a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe</a></p>`,
  ].join('\n');
  return { to, subject: `[${pageName}] ${title}`, text, html, headers: unsubscribeHeaders(links.unsubscribeUrl) };
}

/** Who a webhook body is for and what it is. */
export interface WebhookEnvelope {
  notificationId: string;
  subscriptionId: string;
}

/** The body of the signed POST that tells a WEBHOOK subscriber of `page` about an update or a reminder. */
export function notificationWebhookBody(envelope: WebhookEnvelope, page: SubscribedPage, facts: SubscriberNotificationFacts, links: NotificationLinks): string {
  const head = {
    type: notificationEvent(facts),
    notificationId: envelope.notificationId,
    subscriptionId: envelope.subscriptionId,
    statusPage: { id: page.id, name: page.name, url: page.url },
  };
  if (facts.subjectType === 'INCIDENT') {
    return JSON.stringify({
      ...head,
      incident: { ...facts.incident, services: facts.services, url: links.detailUrl },
      incidentUpdate: facts.update,
      unsubscribeUrl: links.unsubscribeUrl,
    });
  }
  return JSON.stringify({
    ...head,
    maintenance: { ...facts.maintenance, services: facts.services, affectsAllServices: facts.affectsAllServices, url: links.detailUrl },
    ...(facts.reminder ? { reminder: facts.reminder } : { maintenanceUpdate: facts.update }),
    unsubscribeUrl: links.unsubscribeUrl,
  });
}

/**
 * An address as logs show it: an email's first letter and domain (o***@example.com), a URL's
 * scheme and host (its path and query may carry a token).
 */
export function maskAddress(channel: string, address: string): string {
  if (channel === 'EMAIL') {
    const at = address.lastIndexOf('@');
    return at > 0 ? `${address.charAt(0)}***${address.slice(at)}` : '***';
  }
  try {
    const url = new URL(address);
    return `${url.protocol}//${url.host}/***`;
  } catch {
    return '***';
  }
}
