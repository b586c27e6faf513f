/** The colours of a status page palette, one palette per mode (service-api.md "Status page"). */
export const THEME_COLOR_KEYS = [
  'bodyBackgroundColor', 'headerBackgroundColor', 'headerFontColor', 'titleFontColor', 'bodyFontColor', 'bodyFontColorMuted',
  'navigationFontColor', 'linkFontColor', 'cardBackgroundColor', 'borderColor', 'primaryButtonBackgroundColor', 'primaryButtonFontColor',
] as const;
export type ThemeColorKey = (typeof THEME_COLOR_KEYS)[number];

/**
 * A colour: `#` and 3 or 6 hex digits. The real API's pattern admits upper case only; lower case is
 * accepted too (browsers read both the same) and stored as sent.
 */
export const THEME_COLOR_PATTERN = '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$';
const COLOR = new RegExp(THEME_COLOR_PATTERN);

export const DEFAULT_THEMES = ['LIGHT', 'DARK', 'AUTO'] as const;
export type DefaultTheme = (typeof DEFAULT_THEMES)[number];

export type ThemePalette = Partial<Record<ThemeColorKey, string>>;
/** What a page stores: the palettes as sent, any key left out. */
export interface ThemeColors {
  light?: ThemePalette | null;
  dark?: ThemePalette | null;
}

/** The colours of a page that sets none. */
export const DEFAULT_THEME_COLORS: Readonly<Record<'light' | 'dark', Readonly<Record<ThemeColorKey, string>>>> = {
  light: {
    bodyBackgroundColor: '#F9FAFB', headerBackgroundColor: '#FFFFFF', headerFontColor: '#151A1E', titleFontColor: '#212930',
    bodyFontColor: '#475766', bodyFontColorMuted: '#60758A', navigationFontColor: '#151A1E', linkFontColor: '#0075FF',
    cardBackgroundColor: '#FFFFFF', borderColor: '#E1E7ED', primaryButtonBackgroundColor: '#0075FF', primaryButtonFontColor: '#FFFFFF',
  },
  dark: {
    bodyBackgroundColor: '#0D1117', headerBackgroundColor: '#161B22', headerFontColor: '#F0F6FC', titleFontColor: '#F0F6FC',
    bodyFontColor: '#C9D1D9', bodyFontColorMuted: '#8B949E', navigationFontColor: '#F0F6FC', linkFontColor: '#58A6FF',
    cardBackgroundColor: '#161B22', borderColor: '#30363D', primaryButtonBackgroundColor: '#1F6FEB', primaryButtonFontColor: '#FFFFFF',
  },
};

/** Every colour a page shows in each mode: the stored ones over the defaults (a public page renders these). */
export function effectiveThemeColors(stored: ThemeColors | null | undefined): Record<'light' | 'dark', Record<ThemeColorKey, string>> {
  const fill = (mode: 'light' | 'dark') => {
    const out = { ...DEFAULT_THEME_COLORS[mode] };
    for (const key of THEME_COLOR_KEYS) {
      const colour = stored?.[mode]?.[key];
      if (typeof colour === 'string' && COLOR.test(colour)) out[key] = colour;
    }
    return out;
  };
  return { light: fill('light'), dark: fill('dark') };
}
