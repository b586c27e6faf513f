import { badgeResponseTime, checkBadgeStatus, groupBadgeStatus } from '../domain/badge-status.js';
import { notFound } from '../domain/lookout-error.js';
import { renderBadge, type BadgeStyle, type BadgeTheme } from '../domain/render-badge.js';
import type { Store } from '../store/create-store.js';

/** How a badge is drawn (the badge routes' query). */
export interface BadgeOptions {
  style: BadgeStyle;
  theme: BadgeTheme;
  responseTime: boolean;
}

/** SVG status badges of checks and groups, from the latest known state of their checks. */
export function createBadgeService({ store }: { store: Store }) {
  return {
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
  };
}
export type BadgeService = ReturnType<typeof createBadgeService>;
