import type { PublicIncident, PublicMaintenance, PublicPageModel } from '../../domain/public-status-page.js';
import { escapeHtml } from './html.js';
import { xmlText as x } from './xml-text.js';

/** One feed entry: an incident or a maintenance, with its latest update as the summary. */
interface FeedEntry {
  id: string;
  title: string;
  link: string;
  updated: Date;
  body: string;
}

/**
 * An RSS description is HTML that readers render after their XML decode: the text is escaped as
 * HTML first (line breaks kept), then as XML, so `<script>` in an incident shows as text.
 */
function rssDescription(text: string): string {
  return x(escapeHtml(text).replace(/\n/g, '<br>'));
}

function entries(model: PublicPageModel, pageUrl: string): FeedEntry[] {
  const fromIncident = (i: PublicIncident): FeedEntry => ({
    id: `incident:${i.id}`, title: `${i.name} (${i.lastUpdateStatus.toLowerCase()})`, link: `${pageUrl}/incidents/${i.id}`,
    updated: i.updates[0]?.at ?? i.createdAt,
    body: i.updates.map((u) => `${u.at.toISOString()} ${u.status ?? ''}: ${u.description}`).join('\n'),
  });
  const fromMaintenance = (m: PublicMaintenance): FeedEntry => ({
    id: `maintenance:${m.id}`, title: `Maintenance: ${m.name} (${m.status.toLowerCase().replace('_', ' ')})`, link: `${pageUrl}/maintenances/${m.id}`,
    updated: m.updates[0]?.at ?? m.startsAt,
    body: [`Scheduled ${m.startsAt.toISOString()} to ${m.endsAt.toISOString()}`, m.description ?? '', ...m.updates.map((u) => `${u.at.toISOString()} ${u.status ?? ''}: ${u.description}`)].filter(Boolean).join('\n'),
  });
  return [
    ...model.openIncidents, ...model.pastIncidents,
  ].map(fromIncident).concat([...model.activeMaintenances, ...model.upcomingMaintenances, ...model.pastMaintenances].map(fromMaintenance))
    .sort((a, b) => b.updated.getTime() - a.updated.getTime())
    .slice(0, 50);
}

/** RSS 2.0 of the page's incidents and maintenance, newest first (50 entries). */
export function statusPageRss(name: string, pageUrl: string, model: PublicPageModel, now: Date): string {
  const items = entries(model, pageUrl).map((e) => `<item><title>${x(e.title)}</title><link>${x(e.link)}</link><guid isPermaLink="false">${x(e.id)}</guid><pubDate>${e.updated.toUTCString()}</pubDate><description>${rssDescription(e.body)}</description></item>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>${x(name)} status</title><link>${x(pageUrl)}</link><description>${rssDescription(`Incidents and maintenance of ${name}`)}</description><lastBuildDate>${now.toUTCString()}</lastBuildDate>${items.join('')}</channel></rss>\n`;
}

/** Atom 1.0 of the same entries. */
export function statusPageAtom(name: string, pageUrl: string, model: PublicPageModel, now: Date): string {
  const list = entries(model, pageUrl);
  const items = list.map((e) => `<entry><id>${x(`${pageUrl}#${e.id}`)}</id><title>${x(e.title)}</title><link href="${x(e.link)}"/><updated>${e.updated.toISOString()}</updated><content type="text">${x(e.body)}</content></entry>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><id>${x(pageUrl)}</id><title>${x(name)} status</title><link href="${x(pageUrl)}"/><link rel="self" href="${x(`${pageUrl}/feed.atom`)}"/><updated>${(list[0]?.updated ?? now).toISOString()}</updated><author><name>${x(name)}</name></author>${items.join('')}</feed>\n`;
}
