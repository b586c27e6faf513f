/** The 12 colour keys of a status page palette (status-pages-reference.md, StatusPageThemeColors). */
export const THEME_KEYS = [
  'bodyBackgroundColor', 'headerBackgroundColor', 'headerFontColor', 'titleFontColor', 'bodyFontColor', 'bodyFontColorMuted',
  'navigationFontColor', 'linkFontColor', 'cardBackgroundColor', 'borderColor', 'primaryButtonBackgroundColor', 'primaryButtonFontColor',
] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];
export type Palette = Partial<Record<ThemeKey, string | null>>;

/** Palettes a page without its own colours gets. */
export const DEFAULT_PALETTES: Record<'light' | 'dark', Record<ThemeKey, string>> = {
  light: {
    bodyBackgroundColor: '#F7F8FA', headerBackgroundColor: '#FFFFFF', headerFontColor: '#111827', titleFontColor: '#111827',
    bodyFontColor: '#1F2937', bodyFontColorMuted: '#6B7280', navigationFontColor: '#374151', linkFontColor: '#2563EB',
    cardBackgroundColor: '#FFFFFF', borderColor: '#E5E7EB', primaryButtonBackgroundColor: '#2563EB', primaryButtonFontColor: '#FFFFFF',
  },
  dark: {
    bodyBackgroundColor: '#0B1020', headerBackgroundColor: '#111827', headerFontColor: '#F9FAFB', titleFontColor: '#F9FAFB',
    bodyFontColor: '#E5E7EB', bodyFontColorMuted: '#9CA3AF', navigationFontColor: '#D1D5DB', linkFontColor: '#60A5FA',
    cardBackgroundColor: '#111827', borderColor: '#1F2937', primaryButtonBackgroundColor: '#3B82F6', primaryButtonFontColor: '#FFFFFF',
  },
};

const HEX = /^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/;

/** CSS custom properties of one palette over the defaults; a value that is not a hex colour is ignored. */
export function paletteCss(mode: 'light' | 'dark', palette: Palette | null | undefined): string {
  const merged = { ...DEFAULT_PALETTES[mode] };
  for (const key of THEME_KEYS) {
    const v = palette?.[key];
    if (typeof v === 'string' && HEX.test(v)) merged[key] = v;
  }
  return THEME_KEYS.map((k) => `--${k}:${merged[k]};`).join('');
}

/**
 * The page's theme CSS: LIGHT and DARK pin a palette; AUTO follows the visitor's
 * prefers-color-scheme. `data-theme` on <html> lets tests and visitors force one.
 */
export function themeCss(defaultTheme: string, colors: { light?: Palette | null; dark?: Palette | null } | null | undefined): string {
  const light = paletteCss('light', colors?.light);
  const dark = paletteCss('dark', colors?.dark);
  if (defaultTheme === 'DARK') return `:root{${dark}}html[data-theme=light]{${light}}`;
  if (defaultTheme === 'LIGHT') return `:root{${light}}html[data-theme=dark]{${dark}}`;
  return `:root{${light}}@media (prefers-color-scheme: dark){:root{${dark}}}html[data-theme=light]{${light}}html[data-theme=dark]{${dark}}`;
}
