import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME_COLORS, THEME_COLOR_KEYS, THEME_COLOR_PATTERN, effectiveThemeColors } from '../../src/domain/status-page-theme.js';

describe('THEME_COLOR_PATTERN', () => {
  const colour = new RegExp(THEME_COLOR_PATTERN);
  it.each(['#FFF', '#fff', '#A1b2C3', '#000000'])('accepts %s (upper and lower case)', (c) => expect(colour.test(c)).toBe(true));
  it.each(['FFF', '#FFFF', '#12345', '#GGGGGG', 'red', '#FFF ', 'rgb(0,0,0)'])('refuses %j', (c) => expect(colour.test(c)).toBe(false));
});

describe('effectiveThemeColors', () => {
  it('gives every key of both modes: the stored colour where one is set, the default elsewhere', () => {
    expect(effectiveThemeColors(null)).toEqual(DEFAULT_THEME_COLORS);
    const colours = effectiveThemeColors({ light: { linkFontColor: '#abc' }, dark: null });
    expect(colours.light).toEqual({ ...DEFAULT_THEME_COLORS.light, linkFontColor: '#abc' });
    expect(colours.dark).toEqual(DEFAULT_THEME_COLORS.dark);
    for (const mode of ['light', 'dark'] as const) expect(Object.keys(colours[mode]).sort()).toEqual([...THEME_COLOR_KEYS].sort());
  });
  it('keeps the default where a stored value is no colour', () => {
    expect(effectiveThemeColors({ light: { borderColor: 'red' } }).light.borderColor).toBe(DEFAULT_THEME_COLORS.light.borderColor);
  });
});
