import { badgeResponseTime, checkBadgeStatus, groupBadgeStatus } from '../domain/badge-status.js';
import { notFound } from '../domain/lookout-error.js';
import { renderBadge, type BadgeStyle, type BadgeTheme } from '../domain/render-badge.js';
import type { Store } from '../store/create-store.js';
import type { BadgeSubjectRef, PublicBadgeRow } from '../store/public-badges-repository.js';

/** How a badge is drawn (the badge routes' query). */
export interface BadgeOptions {
  style: BadgeStyle;
  theme: BadgeTheme;
  responseTime: boolean;
}

/** A public badge URL as the API shows it (the token is the URL's only secret, and shows nothing but the badge). */
export interface PublicBadgeView {
  token: string;
  url: string;
  checkId: string | null;
  groupId: number | null;
  created_at: string;
}

function subjectName(subject: BadgeSubjectRef): [string, string | number] {
  return 'checkId' in subject ? ['Check', subject.checkId] : ['Check group', subject.groupId];
}

/** SVG status badges of checks and groups, from the latest known state of their checks; public badge URLs. */
export function createBadgeService({ store, publicUrl }: { store: Store; publicUrl: string }) {
  const view = (row: PublicBadgeRow): PublicBadgeView => ({
    token: row.token, url: `${publicUrl.replace(/\/$/, '')}/badges/${row.token}`,
    checkId: row.check_id, groupId: row.group_id, created_at: row.created_at.toISOString(),
  });
  const service = {
    async check(accountId: string, checkId: string, options: BadgeOptions): Promise<string> {
      const subject = await store.badgeSubjects.check(accountId, checkId);
      if (!subject) throw notFound('Check', checkId);
      return renderBadge({
        label: subject.name,
        status: checkBadgeStatus(subject.states[0] ?? null),
        responseTime: options.responseTime ? { ms: badgeResponseTime(subject.states) } : undefined,
        style: options.style,
        theme: options.theme,
      });
    },

    /** A group's badge: the worst status of its activated checks; the response time of the slowest. */
    async group(accountId: string, groupId: number, options: BadgeOptions): Promise<string> {
      const subject = await store.badgeSubjects.group(accountId, groupId);
      if (!subject) throw notFound('Check group', groupId);
      return renderBadge({
        label: subject.name,
        status: groupBadgeStatus(subject.states),
        responseTime: options.responseTime ? { ms: badgeResponseTime(subject.states) } : undefined,
        style: options.style,
        theme: options.theme,
      });
    },

    /** Turns the subject's public URL on (or answers the one it has). */
    async publish(accountId: string, subject: BadgeSubjectRef): Promise<PublicBadgeView> {
      const row = await store.publicBadges.upsert(accountId, subject);
      if (!row) throw notFound(...subjectName(subject));
      return view(row);
    },

    async publicUrl(accountId: string, subject: BadgeSubjectRef): Promise<PublicBadgeView> {
      const row = await store.publicBadges.get(accountId, subject);
      if (!row) throw notFound(`Public badge of ${subjectName(subject)[0].toLowerCase()}`, subjectName(subject)[1]);
      return view(row);
    },

    /** Revokes the subject's public URL: it answers 404 from now on. */
    async unpublish(accountId: string, subject: BadgeSubjectRef): Promise<void> {
      if (!(await store.publicBadges.delete(accountId, subject))) throw notFound(`Public badge of ${subjectName(subject)[0].toLowerCase()}`, subjectName(subject)[1]);
    },

    /** The badge behind a public URL, drawn for the token's account only. */
    async byToken(token: string, options: BadgeOptions): Promise<string> {
      const row = await store.publicBadges.find(token);
      if (!row) throw notFound('Public badge', token);
      return row.check_id ? service.check(row.account_id, row.check_id, options) : service.group(row.account_id, row.group_id!, options);
    },
  };
  return service;
}
export type BadgeService = ReturnType<typeof createBadgeService>;
