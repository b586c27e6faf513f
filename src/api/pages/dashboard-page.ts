import { cssForStyleElement } from '../../domain/dashboard-rules.js';
import type { BadgeStatus } from '../../domain/badge-status.js';
import type { DashboardPageView, PublicDashboardCheckView, PublicDashboardData } from '../../service/dashboard-page-service.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** An http(s) URL to place in an attribute, or null for anything else (the API stores only those; this holds whatever the store has). */
function webUrl(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? escapeHtml(url) : null;
}

const STATUS_LABEL: Record<BadgeStatus, string> = { passing: 'Passing', degraded: 'Degraded', failing: 'Failing', unknown: 'No runs yet' };

const percent = (v: number | null) => (v == null ? '—' : `${v.toFixed(2)}%`);
const ms = (v: number | null) => (v == null ? '—' : `${Math.round(v)} ms`);
/** An instant as the page shows it: UTC, to the second. */
const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
const time = (iso: string) => `<time datetime="${escapeHtml(iso)}">${escapeHtml(utc(iso))}</time>`;

/** The page's own rules; class names are stable so that customCSS can restyle any part. */
const BASE_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f6f8;color:#1f2933;line-height:1.4}
.dashboard__main{padding:24px;margin:0 auto}
.dashboard--narrow .dashboard__main{max-width:960px}
.dashboard__header{display:flex;align-items:center;gap:16px;margin-bottom:16px}
.dashboard__logo img{max-height:48px;max-width:200px;display:block}
.dashboard__title{margin:0;font-size:1.6rem}
.dashboard__description{margin:4px 0 0;color:#52606d}
.dashboard__summary{padding:12px 16px;border-radius:6px;margin-bottom:16px;font-weight:600;color:#fff;background:#2f9e44}
.dashboard__summary--degraded{background:#e8a317}
.dashboard__summary--failing{background:#d64545}
.dashboard__summary--unknown{background:#7b8794}
.dashboard__incidents{background:#fff;border-left:4px solid #d64545;border-radius:6px;padding:12px 16px;margin-bottom:16px}
.dashboard__incidents h2{margin:0 0 8px;font-size:1.1rem}
.incident{margin:6px 0}
.incident__severity,.incident__status{font-size:.75rem;font-weight:700;text-transform:uppercase;margin-left:6px;color:#52606d}
.incident__update{margin:2px 0 0;color:#52606d}
.dashboard__checks{list-style:none;margin:0;padding:0;display:grid;gap:8px}
.check{background:#fff;border-radius:6px;border-left:6px solid #7b8794}
.check--passing{border-left-color:#2f9e44}
.check--degraded{border-left-color:#e8a317}
.check--failing{border-left-color:#d64545}
.check summary{display:flex;flex-wrap:wrap;align-items:center;gap:12px;padding:10px 14px;cursor:pointer}
.check__name{font-weight:600;flex:1 1 240px;overflow-wrap:anywhere}
.check__status{font-size:.8rem;font-weight:700;text-transform:uppercase}
.check--passing .check__status{color:#2f9e44}
.check--degraded .check__status{color:#b7791f}
.check--failing .check__status{color:#d64545}
.check--unknown .check__status{color:#7b8794}
.check__metric{font-variant-numeric:tabular-nums;color:#3e4c59;min-width:90px}
.check__metric-label{color:#7b8794;font-size:.75rem;margin-right:4px}
.check__details{margin:0;padding:0 14px 12px;display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;color:#52606d}
.check__details dt{font-weight:600}
.check__details dd{margin:0}
.check__tags{list-style:none;display:flex;flex-wrap:wrap;gap:4px;margin:0;padding:0 14px 12px}
.check__tags li{background:#e4e7eb;border-radius:10px;padding:1px 8px;font-size:.75rem}
.dashboard__empty{background:#fff;border-radius:6px;padding:16px}
.dashboard__pages{margin-top:16px;display:flex;gap:8px;align-items:center}
.dashboard__pages a[aria-current]{font-weight:700;text-decoration:none;color:inherit}
.dashboard__footer{margin-top:16px;color:#7b8794;font-size:.85rem}
`;

function summaryLine(summary: PublicDashboardData['summary'], total: number): { kind: BadgeStatus; text: string } {
  if (total === 0) return { kind: 'unknown', text: 'No checks to show' };
  const parts = (['failing', 'degraded', 'unknown'] as const).filter((s) => summary[s] > 0)
    .map((s) => `${summary[s]} ${s === 'unknown' ? 'not run yet' : s}`);
  if (summary.failing > 0) return { kind: 'failing', text: parts.join(', ') };
  if (summary.degraded > 0) return { kind: 'degraded', text: parts.join(', ') };
  if (summary.passing === 0) return { kind: 'unknown', text: 'No check has run yet' };
  return { kind: 'passing', text: summary.unknown > 0 ? `${summary.passing} passing, ${parts.join(', ')}` : `All ${summary.passing} checks passing` };
}

function metric(label: string, value: string, title: string): string {
  return `<span class="check__metric" title="${escapeHtml(title)}"><span class="check__metric-label">${escapeHtml(label)}</span>${escapeHtml(value)}</span>`;
}

function checkItem(c: PublicDashboardCheckView, d: PublicDashboardData['dashboard']): string {
  const metrics = [
    metric('24h', percent(c.availability24h), 'Availability over the last 24 hours'),
    metric('7d', percent(c.availability7d), 'Availability over the last 7 days'),
    d.showP95 ? metric('p95', ms(c.p95), '95th percentile response time over the last 24 hours') : '',
    d.showP99 ? metric('p99', ms(c.p99), '99th percentile response time over the last 24 hours') : '',
  ].join('');
  const lastRun = c.lastRunAt ? `${time(c.lastRunAt)}${c.lastRunLocation ? ` from ${escapeHtml(c.lastRunLocation)}` : ''}` : 'Not run yet';
  const details = `<dl class="check__details"><dt>Type</dt><dd>${escapeHtml(c.checkType)}</dd><dt>Last run</dt><dd>${lastRun}</dd>`
    + `<dt>Response time</dt><dd>${escapeHtml(ms(c.lastResponseTime))}</dd></dl>`;
  const tags = c.tags.length > 0 ? `<ul class="check__tags">${c.tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` : '';
  return `<li class="check check--${c.status}" data-status="${c.status}"><details${d.expandChecks ? ' open' : ''}>`
    + `<summary><span class="check__name">${escapeHtml(c.name)}</span><span class="check__status">${STATUS_LABEL[c.status]}</span>${metrics}</summary>`
    + `${details}${tags}</details></li>`;
}

function incidentsSection(incidents: PublicDashboardData['incidents']): string {
  if (incidents.length === 0) return '';
  const items = incidents.map((i) => `<li class="incident incident--${escapeHtml(i.severity.toLowerCase())}">`
    + `<strong class="incident__name">${escapeHtml(i.name)}</strong>`
    + `<span class="incident__severity">${escapeHtml(i.severity)}</span><span class="incident__status">${escapeHtml(i.lastUpdateStatus)}</span>`
    + (i.latestUpdate ? `<p class="incident__update">${escapeHtml(i.latestUpdate)}${i.latestUpdateAt ? ` (${time(i.latestUpdateAt)})` : ''}</p>` : '')
    + '</li>').join('');
  return `<section class="dashboard__incidents" aria-label="Open incidents"><h2>Open incidents</h2><ul>${items}</ul></section>`;
}

function pagesNav(page: number, pages: number): string {
  if (pages <= 1) return '';
  const links = Array.from({ length: pages }, (_, i) => i + 1)
    .map((n) => `<a href="?page=${n}"${n === page ? ' aria-current="page"' : ''}>${n}</a>`).join('');
  return `<nav class="dashboard__pages" aria-label="Pages"><span>Page ${page} of ${pages}</span>${links}</nav>`;
}

/**
 * The HTML of a public dashboard page: pure (no I/O), everything from the view escaped, URLs only
 * when http(s), custom CSS in its own <style> element after the page's rules. The page holds no
 * script: it reloads itself with a meta refresh (to the next page when it paginates).
 */
export function renderDashboardPage(view: DashboardPageView): string {
  const { data, reload } = view;
  const d = data.dashboard;
  const title = d.header || 'Dashboard';
  const favicon = webUrl(d.favicon);
  const logo = webUrl(d.logo);
  const link = webUrl(d.link);
  const logoHtml = logo ? `<img src="${logo}" alt="${escapeHtml(title)} logo">` : '';
  const header = d.showHeader
    ? `<header class="dashboard__header">${logoHtml ? (link ? `<a class="dashboard__logo" href="${link}" rel="noopener noreferrer">${logoHtml}</a>` : `<span class="dashboard__logo">${logoHtml}</span>`) : ''}`
      + `<div><h1 class="dashboard__title">${escapeHtml(title)}</h1>${d.description ? `<p class="dashboard__description">${escapeHtml(d.description)}</p>` : ''}</div></header>`
    : '';
  const summary = summaryLine(data.summary, data.totalChecks);
  const checks = data.checks.length > 0
    ? `<ul class="dashboard__checks">${data.checks.map((c) => checkItem(c, d)).join('')}</ul>`
    : '<p class="dashboard__empty">No activated checks match this dashboard.</p>';
  const more = !d.paginate && data.totalChecks > data.checks.length
    ? `<p class="dashboard__more">${data.totalChecks - data.checks.length} more checks are not shown: turn pagination on to see them.</p>` : '';
  return '<!doctype html>\n'
    + '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<meta http-equiv="refresh" content="${reload.seconds};url=?page=${reload.page}">`
    + `<title>${escapeHtml(title)}</title>${favicon ? `<link rel="icon" href="${favicon}">` : ''}`
    + `<style>${BASE_CSS}</style>${view.customCSS ? `<style class="dashboard__custom-css">${cssForStyleElement(view.customCSS)}</style>` : ''}</head>`
    + `<body class="dashboard${d.width === '960PX' ? ' dashboard--narrow' : ''}"><main class="dashboard__main">${header}`
    + `<section class="dashboard__summary dashboard__summary--${summary.kind}" role="status">${escapeHtml(summary.text)}</section>`
    + `${incidentsSection(data.incidents)}${checks}${more}${pagesNav(data.page, data.pages)}`
    + `<footer class="dashboard__footer">Updated ${time(data.generatedAt)}; this page reloads every ${reload.seconds} seconds.</footer>`
    + '</main></body></html>\n';
}
