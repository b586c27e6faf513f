import { makeBadge } from 'badge-maker';
import type { BadgeStatus } from './badge-status.js';

export const BADGE_STYLES = ['flat', 'plastic', 'flat-square', 'for-the-badge', 'social'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];
export const BADGE_THEMES = ['light', 'dark', 'default'] as const;
export type BadgeTheme = (typeof BADGE_THEMES)[number];

/** Message colour per status (shields.io's named colours). */
export const STATUS_COLORS: Record<BadgeStatus, string> = {
  passing: 'brightgreen',
  degraded: 'orange',
  failing: 'red',
  unknown: 'lightgrey',
};

/**
 * Label (left half) colour per theme; the message colour always tells the status. `default` is
 * shields.io's grey; badge-maker switches the label text to dark on the light background.
 */
export const THEME_LABEL_COLORS: Record<BadgeTheme, string> = {
  default: '#555',
  light: '#eeeeee',
  dark: '#24292f',
};

/** What a badge shows. */
export interface BadgeInput {
  label: string;
  status: BadgeStatus;
  /** When set, the message is the response time instead of the status word. */
  responseTime?: { ms: number | null };
  style: BadgeStyle;
  theme: BadgeTheme;
}

/** The SVG image of a badge: label = the check or group name, message = status or response time. */
export function renderBadge(input: BadgeInput): string {
  const message = input.responseTime
    ? input.responseTime.ms == null ? 'unknown' : `${Math.round(input.responseTime.ms)} ms`
    : input.status;
  return makeBadge({
    label: input.label,
    message,
    color: STATUS_COLORS[input.status],
    labelColor: THEME_LABEL_COLORS[input.theme],
    style: input.style,
  });
}
