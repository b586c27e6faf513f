import type { FastifyReply } from 'fastify';
import { LIVE_SCRIPT_HASH } from './pages/status-page-html.js';

/** What a public answer is: a page a browser renders, an SVG image, or a feed. */
export type PublicAnswerKind = 'html' | 'svg' | 'feed';

/**
 * The policies by kind. Pages run one script at most, the status page's live-update script, allowed
 * by its hash so no injected script runs; styles are inline (a page's theme colours and a dashboard's
 * custom CSS), images may come from anywhere over http(s) (logos, favicons). Nothing public may be
 * framed: a framed password form is a click-jacking target.
 */
const POLICIES: Record<PublicAnswerKind, string> = {
  html: `default-src 'none'; script-src '${LIVE_SCRIPT_HASH}'; style-src 'unsafe-inline'; img-src http: https: data:; `
    + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  svg: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  feed: "default-src 'none'; frame-ancestors 'none'",
};

/**
 * Sets the security headers every public answer (status pages, their password form and feeds, public
 * dashboards, badges, subscriber link pages) carries: one Content-Security-Policy per kind, no framing,
 * no content-type sniffing and no Referer to wherever a visitor follows a link.
 */
export function publicSecurityHeaders(reply: FastifyReply, kind: PublicAnswerKind): FastifyReply {
  return reply
    .header('content-security-policy', POLICIES[kind])
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}
