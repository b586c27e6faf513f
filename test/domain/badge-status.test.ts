import { describe, expect, it } from 'vitest';
import { badgeResponseTime, checkBadgeStatus, groupBadgeStatus, type CheckState } from '../../src/domain/badge-status.js';
import { BADGE_STYLES, renderBadge } from '../../src/domain/render-badge.js';

const state = (over: Partial<CheckState> = {}): CheckState => ({ hasFailures: false, hasErrors: false, isDegraded: false, longestRun: 100, ...over });

describe('badge status', () => {
  it.each([
    ['no state (never ran)', 'unknown', null],
    ['a clean run', 'passing', state()],
    ['a degraded run', 'degraded', state({ isDegraded: true })],
    ['a failed run', 'failing', state({ hasFailures: true })],
    ['an errored run', 'failing', state({ hasErrors: true })],
    ['a failed run that was also slow', 'failing', state({ hasFailures: true, isDegraded: true })],
  ])('a check with %s is %s', (_n, expected, s) => {
    expect(checkBadgeStatus(s)).toBe(expected);
  });

  it.each([
    ['no checks', 'unknown', []],
    ['only passing checks', 'passing', [state(), state()]],
    ['a check that never ran beside passing ones', 'unknown', [state(), null]],
    ['a degraded check beside one that never ran', 'degraded', [null, state({ isDegraded: true })]],
    ['one failing check among others', 'failing', [state(), state({ isDegraded: true }), state({ hasErrors: true }), null]],
  ])('a group with %s is %s', (_n, expected, states) => {
    expect(groupBadgeStatus(states as (CheckState | null)[])).toBe(expected);
  });

  it('shows the slowest known latest run, and nothing when no check has run', () => {
    expect(badgeResponseTime([state({ longestRun: 120 }), null, state({ longestRun: 80 })])).toBe(120);
    expect(badgeResponseTime([null, state({ longestRun: null })])).toBeNull();
    expect(badgeResponseTime([])).toBeNull();
  });
});

describe('badge rendering', () => {
  it.each(BADGE_STYLES)('draws an SVG with the label and the status in the %s style', (style) => {
    const svg = renderBadge({ label: 'Shop <API> & co', status: 'degraded', style, theme: 'default' });
    expect(svg.startsWith('<svg')).toBe(true);
    // for-the-badge capitalises its text.
    expect(svg.toLowerCase()).toContain('shop &lt;api&gt; &amp; co');
    expect(svg.toLowerCase()).toContain('degraded');
  });

  it('shows the response time instead of the status when asked, and unknown without a run', () => {
    expect(renderBadge({ label: 'x', status: 'passing', responseTime: { ms: 123.4 }, style: 'flat', theme: 'default' })).toContain('123 ms');
    expect(renderBadge({ label: 'x', status: 'unknown', responseTime: { ms: null }, style: 'flat', theme: 'default' })).toContain('x: unknown');
  });

  it('changes only the label colour with the theme', () => {
    const dark = renderBadge({ label: 'x', status: 'failing', style: 'flat', theme: 'dark' });
    const light = renderBadge({ label: 'x', status: 'failing', style: 'flat', theme: 'light' });
    expect(dark).toContain('fill="#24292f"');
    expect(light).toContain('fill="#eeeeee"');
    // The message keeps the status colour in both themes.
    for (const svg of [dark, light]) expect(svg).toContain('fill="#dd4343"');
    expect(renderBadge({ label: 'x', status: 'failing', style: 'flat', theme: 'default' })).toContain('fill="#555"');
  });
});
