import { createHash } from 'node:crypto';
import type { PublicIncident, PublicMaintenance, PublicPageModel, PublicServiceModel } from '../../domain/public-status-page.js';
import type { ServiceState } from '../../domain/service-state.js';
import { SafeHtml, html, safeUrl } from './html.js';
import type { ThemeColors } from '../../domain/status-page-theme.js';
import { themeCss } from './status-page-theme.js';

/** The page settings a public status page shows (a status page as stored). */
export interface StatusPageLook {
  name: string;
  description: string | null;
  logo: string | null;
  logoDark: string | null;
  favicon: string | null;
  redirectTo: string | null;
  defaultTheme: string;
  themeColors: ThemeColors | null;
  /** Private pages have no feeds ("feeds unavailable on private pages"). */
  isPrivate: boolean;
  /** Whether visitors may subscribe by email here (confirmation mails need SMTP). */
  subscribable?: boolean;
}

export interface StatusPageHtmlOptions {
  look: StatusPageLook;
  /** Path prefix of the page's links: `/status/{url}`, or '' on its custom domain. */
  base: string;
  /** The account's public content version the page was built from (the live script compares it). */
  version: number;
  now: Date;
}

const STATE_TEXT: Record<ServiceState, string> = {
  OPERATIONAL: 'Operational',
  UNDER_MAINTENANCE: 'Under maintenance',
  DEGRADED: 'Degraded performance',
  PARTIAL_OUTAGE: 'Partial outage',
  MAJOR_OUTAGE: 'Major outage',
};
const PAGE_STATE_TEXT: Record<ServiceState, string> = {
  OPERATIONAL: 'All systems operational',
  UNDER_MAINTENANCE: 'Maintenance in progress',
  DEGRADED: 'Some systems are degraded',
  PARTIAL_OUTAGE: 'Partial system outage',
  MAJOR_OUTAGE: 'Major system outage',
};
const INCIDENT_STATUS_TEXT: Record<string, string> = {
  INVESTIGATING: 'Investigating', IDENTIFIED: 'Identified', MONITORING: 'Monitoring', RESOLVED: 'Resolved',
  SCHEDULED: 'Scheduled', IN_PROGRESS: 'In progress', VERIFYING: 'Verifying', COMPLETED: 'Completed', CANCELLED: 'Cancelled',
};

/** "2026-11-24 07:05 UTC": public pages show every time in UTC. */
export function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function percent(value: number | null): string {
  return value === null ? 'No data' : `${(Math.floor(value * 100) / 100).toFixed(2)}%`;
}

/** A day fully up: the bar's default look, with no attributes (most of the 90 bars of most services). */
const UP_BAR = new SafeHtml('<i></i>');
/** A day without data: its title ("No data") is added on hover by the page script. */
const NO_DATA_BAR = new SafeHtml('<i class="n"></i>');

/**
 * A service's daily bars, the bulk of a page (90 per service): a day fully up is `<i></i>` and
 * one without data `<i class="n">`, both titled on hover by the page script from the row's first
 * date; only days with downtime or degradation carry their own title. 20 services weigh ~13 KB
 * instead of ~100 KB with a title on every day.
 */
function bars(service: PublicServiceModel): SafeHtml {
  return html`<div class="bars" role="img" aria-label="${service.name}: ${percent(service.uptime)} uptime over ${service.days.length} days" data-first="${service.days[0]?.date ?? ''}">${service.days.map((d) => {
    if (d.uptime === null) return NO_DATA_BAR;
    const level = d.downtimeMs > 0 ? (d.uptime < 95 ? 'd' : 'p') : d.degradedMs > 0 ? 'g' : null;
    return level ? html`<i class="${level}" title="${d.date}: ${percent(d.uptime)}"></i>` : UP_BAR;
  })}</div>`;
}

function updatesList(updates: PublicIncident['updates']): SafeHtml {
  return html`<ol class="updates">${updates.map((u) => html`<li><strong>${INCIDENT_STATUS_TEXT[u.status ?? ''] ?? 'Update'}</strong> — ${u.description}<time datetime="${u.at.toISOString()}">${utc(u.at)}</time></li>`)}</ol>`;
}

function serviceNames(ids: string[], names: Map<string, string>): string {
  return ids.map((id) => names.get(id)).filter(Boolean).join(', ');
}

export function incidentBlock(incident: PublicIncident, base: string, names: Map<string, string>): SafeHtml {
  return html`<article class="incident sev-${incident.severity.toLowerCase()}" data-incident-id="${incident.id}">
<h3><a href="${base}/incidents/${incident.id}">${incident.name}</a> <span class="pill">${INCIDENT_STATUS_TEXT[incident.lastUpdateStatus]}</span></h3>
<p class="muted">Affects ${serviceNames(incident.serviceIds, names) || 'services of this page'} · ${incident.severity.toLowerCase()} severity</p>
${updatesList(incident.updates)}</article>`;
}

export function maintenanceBlock(m: PublicMaintenance, base: string, names: Map<string, string>): SafeHtml {
  return html`<article class="maintenance" data-maintenance-id="${m.id}">
<h3><a href="${base}/maintenances/${m.id}">${m.name}</a> <span class="pill">${INCIDENT_STATUS_TEXT[m.status]}</span></h3>
<p class="muted">${utc(m.startsAt)} → ${utc(m.endsAt)}${m.serviceIds.length ? ` · Affects ${serviceNames(m.serviceIds, names)}` : ''}</p>
${m.description ? html`<p>${m.description}</p>` : ''}${updatesList(m.updates)}</article>`;
}

/** Names of every service on the page, by id. */
export function serviceNamesOf(model: PublicPageModel): Map<string, string> {
  return new Map(model.cards.flatMap((c) => c.services.map((s) => [s.id, s.name] as const)));
}

/** The part of the page the live script swaps in place: state, maintenance, incidents, cards. */
export function statusPageContent(model: PublicPageModel, base: string): SafeHtml {
  const names = serviceNamesOf(model);
  return html`<section class="overall state-${model.state.toLowerCase()}" data-state="${model.state}"><h2>${PAGE_STATE_TEXT[model.state]}</h2></section>
${model.activeMaintenances.length ? html`<section class="active-maintenance"><h2>Maintenance in progress</h2>${model.activeMaintenances.map((m) => maintenanceBlock(m, base, names))}</section>` : ''}
${model.openIncidents.length ? html`<section class="open-incidents"><h2>Current incidents</h2>${model.openIncidents.map((i) => incidentBlock(i, base, names))}</section>` : ''}
<section class="cards">${model.cards.map((card) => html`<div class="card" data-card-id="${card.id}">
<h2>${card.name} <span class="muted">${percent(card.uptime)}</span></h2>
${card.services.map((s) => html`<div class="service" data-service-id="${s.id}" data-state="${s.state}">
<div class="service-head"><span class="name">${s.name}</span><span class="state state-${s.state.toLowerCase()}">${STATE_TEXT[s.state]}</span></div>
${bars(s)}<div class="muted small"><span>${s.days.length} days ago</span><span>${percent(s.uptime)} uptime</span><span>Today</span></div></div>`)}
</div>`)}</section>
${model.upcomingMaintenances.length ? html`<section class="upcoming"><details open><summary><h2>Upcoming maintenance</h2></summary>${model.upcomingMaintenances.map((m) => maintenanceBlock(m, base, names))}</details></section>` : ''}
<section class="history-link"><a href="${base}/history">Incident and maintenance history</a></section>`;
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bodyBackgroundColor);color:var(--bodyFontColor)}
header{background:var(--headerBackgroundColor);color:var(--headerFontColor);border-bottom:1px solid var(--borderColor)}
.wrap{max-width:860px;margin:0 auto;padding:16px}header .wrap{display:flex;align-items:center;gap:16px;justify-content:space-between}
header h1{margin:0;font-size:20px;color:var(--titleFontColor)}header img{max-height:40px}header nav a{color:var(--navigationFontColor);margin-left:12px}
a{color:var(--linkFontColor)}.muted{color:var(--bodyFontColorMuted)}.small{font-size:12px;display:flex;justify-content:space-between}
.overall{border-radius:8px;padding:12px 16px;margin:16px 0;color:#fff;background:#16A34A}.overall h2{margin:0;font-size:18px;color:#fff}
.overall.state-under_maintenance{background:#2563EB}.overall.state-degraded{background:#CA8A04}.overall.state-partial_outage{background:#EA580C}.overall.state-major_outage{background:#DC2626}
.card,.incident,.maintenance{background:var(--cardBackgroundColor);border:1px solid var(--borderColor);border-radius:8px;padding:12px 16px;margin:12px 0}
.card h2{font-size:16px;margin:0 0 8px;display:flex;justify-content:space-between}.service{padding:8px 0;border-top:1px solid var(--borderColor)}
.service-head{display:flex;justify-content:space-between}.state-operational{color:#16A34A}.state-under_maintenance{color:#2563EB}.state-degraded{color:#CA8A04}.state-partial_outage{color:#EA580C}.state-major_outage{color:#DC2626}
.bars{display:flex;gap:2px;height:28px;margin:6px 0 2px}.bars i{flex:1;border-radius:2px;background:#16A34A}.bars i.n{background:var(--borderColor)}.bars i.g{background:#CA8A04}.bars i.p{background:#EA580C}.bars i.d{background:#DC2626}
.pill{font-size:12px;border:1px solid var(--borderColor);border-radius:999px;padding:1px 8px;color:var(--bodyFontColorMuted)}
.updates{margin:8px 0 0;padding-left:18px}.updates time{display:block;font-size:12px;color:var(--bodyFontColorMuted)}
button,.button{background:var(--primaryButtonBackgroundColor);color:var(--primaryButtonFontColor);border:0;border-radius:6px;padding:8px 14px;font:inherit;cursor:pointer}
input{font:inherit;padding:7px 10px;border:1px solid var(--borderColor);border-radius:6px;background:var(--cardBackgroundColor);color:var(--bodyFontColor)}
footer{margin:32px 0;font-size:12px;color:var(--bodyFontColorMuted);text-align:center}summary h2{display:inline}`;

/** A whole HTML document in the page's look: head, header with logo and navigation, `main`, footer. */
export function statusPageDocument(opts: StatusPageHtmlOptions, title: string, main: SafeHtml, extraHead: SafeHtml | string = ''): string {
  const { look, base } = opts;
  const logoHref = safeUrl(look.redirectTo) || `${base}/`;
  const logo = safeUrl(look.logo);
  const logoDark = safeUrl(look.logoDark);
  const feeds = look.isPrivate ? '' : html`<link rel="alternate" type="application/rss+xml" title="${look.name} incidents (RSS)" href="${base}/feed.rss"><link rel="alternate" type="application/atom+xml" title="${look.name} incidents (Atom)" href="${base}/feed.atom">`;
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>${safeUrl(look.favicon) ? html`<link rel="icon" href="${safeUrl(look.favicon)}">` : ''}${feeds}
<style>${themeCss(look.defaultTheme, look.themeColors)}${STYLE}${logoDark ? `@media (prefers-color-scheme: dark){.logo-light{display:none}}@media (prefers-color-scheme: light){.logo-dark{display:none}}` : ''}</style>${extraHead}</head>
<body data-version="${opts.version}" data-base="${base}"><header><div class="wrap"><a class="brand" href="${logoHref}">${logo ? html`<img class="logo-light" src="${logo}" alt="${look.name}">` : ''}${logoDark ? html`<img class="logo-dark" src="${logoDark}" alt="${look.name}">` : ''}${!logo && !logoDark ? html`<h1>${look.name}</h1>` : ''}</a>
<nav><a href="${base}/">Status</a><a href="${base}/history">History</a>${look.isPrivate ? '' : html`<a href="${base}/feed.rss">RSS</a><a href="${base}/feed.atom">Atom</a>`}</nav></div></header>
<div class="wrap">${main}<footer>All times are shown in UTC · Page generated ${utc(opts.now)}</footer></div></body></html>`}`;
}

/**
 * The live-update script: listens to the page's server-sent events and, on each change, fetches
 * the page's content part and swaps it in, so an open page follows incidents without a reload.
 * EventSource reconnects by itself; a version check skips changes the page already shows. It is the
 * same text on every page (the links' prefix is read from the body) so the Content-Security-Policy
 * allows it by one hash and no other inline script runs.
 */
const LIVE_SCRIPT = `(function(){var body=document.body;var base=body.dataset.base||'';
function refresh(v){if(v&&Number(v)<=Number(body.dataset.version))return;fetch(base+'/content',{credentials:'same-origin',cache:'no-store'}).then(function(r){if(!r.ok)return;var nv=r.headers.get('x-content-version');return r.text().then(function(t){document.getElementById('content').innerHTML=t;if(nv)body.dataset.version=nv;document.dispatchEvent(new CustomEvent('status-page-updated'));});}).catch(function(){});}
document.addEventListener('mouseover',function(e){var b=e.target;if(b.tagName!=='I'||b.title||!b.parentNode.dataset||!b.parentNode.dataset.first)return;var i=Array.prototype.indexOf.call(b.parentNode.children,b);var d=new Date(Date.parse(b.parentNode.dataset.first)+i*864e5).toISOString().slice(0,10);b.title=d+(b.className==='n'?': No data':': 100.00%');});
if(!window.EventSource)return;var es=new EventSource(base+'/events');es.addEventListener('change',function(e){refresh(e.data);});es.addEventListener('hello',function(e){refresh(e.data);});})();`;

/** The CSP source of the live-update script (`'sha256-…'`): the only script a public page may run. */
export const LIVE_SCRIPT_HASH = `sha256-${createHash('sha256').update(LIVE_SCRIPT, 'utf8').digest('base64')}`;

/** The email subscription form: a confirmation mail follows (double opt-in). */
function subscribeForm(base: string): SafeHtml {
  return html`<section class="card subscribe"><form method="post" action="${base}/subscribe"><label for="subscribe-email">Get an email when an incident or maintenance is posted</label>
<p><input id="subscribe-email" name="email" type="email" autocomplete="email" required placeholder="you@example.com"> <button type="submit">Subscribe</button></p></form></section>`;
}

/** The status page itself. */
export function statusPageHtml(opts: StatusPageHtmlOptions, model: PublicPageModel): string {
  const intro = opts.look.description ? html`<p class="muted">${opts.look.description}</p>` : '';
  const subscribe = opts.look.subscribable ? subscribeForm(opts.base) : '';
  return statusPageDocument(opts, opts.look.name, html`${intro}<main id="content">${statusPageContent(model, opts.base)}</main>${subscribe}${new SafeHtml(`<script>${LIVE_SCRIPT}</script>`)}`);
}

/** What a visitor sees after the subscription form. */
export function subscribeOutcomeHtml(opts: StatusPageHtmlOptions, outcome: 'SENT' | 'ALREADY' | 'INVALID' | 'FAILED'): string {
  const text = {
    SENT: 'Check your inbox: we sent you a link to confirm your subscription.',
    ALREADY: 'That address is subscribed already (or waiting for its confirmation).',
    INVALID: 'That is not an email address we can send to.',
    FAILED: 'We could not send the confirmation mail. Please try again later.',
  }[outcome];
  return statusPageDocument(opts, `${opts.look.name} — subscribe`, html`<main class="card"><h2>Subscribe</h2><p role="status">${text}</p><p><a href="${opts.base}/">Back to the status page</a></p></main>`);
}

/** History: every resolved incident and closed maintenance shown on the page, newest first. */
export function statusPageHistoryHtml(opts: StatusPageHtmlOptions, model: PublicPageModel): string {
  const names = serviceNamesOf(model);
  const incidents = [...model.openIncidents, ...model.pastIncidents];
  return statusPageDocument(opts, `${opts.look.name} — history`, html`<main><h2>Incident history</h2>
${incidents.length ? incidents.map((i) => incidentBlock(i, opts.base, names)) : html`<p class="muted">No incidents reported.</p>`}
<h2>Maintenance history</h2>${model.pastMaintenances.length ? model.pastMaintenances.map((m) => maintenanceBlock(m, opts.base, names)) : html`<p class="muted">No past maintenance.</p>`}</main>`);
}

/** What the password prompt says under its form: nothing yet, a wrong password, or too many of them. */
export type PasswordPromptNote = 'WRONG' | 'LOCKED' | undefined;

/** The password prompt of a private page. */
export function passwordPromptHtml(opts: StatusPageHtmlOptions, note: PasswordPromptNote): string {
  const text = note === 'LOCKED' ? 'Too many wrong passwords from your address: try again later.' : note === 'WRONG' ? 'That password is not right.' : '';
  return statusPageDocument(opts, `${opts.look.name} — private status page`, html`<main class="card"><h2>This status page is private</h2>
<form method="post" action="${opts.base}/login"><p><label for="password">Password</label></p><p><input id="password" name="password" type="password" autocomplete="current-password" required autofocus> <button type="submit">View status</button></p>
${text ? html`<p class="state-major_outage" role="alert">${text}</p>` : ''}</form></main>`);
}
