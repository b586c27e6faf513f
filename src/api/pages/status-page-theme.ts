import { THEME_COLOR_KEYS, effectiveThemeColors, type ThemeColors, type ThemeColorKey } from '../../domain/status-page-theme.js';

/** CSS custom properties of one palette: `--bodyBackgroundColor:#fff;…`. */
function paletteCss(palette: Record<ThemeColorKey, string>): string {
  return THEME_COLOR_KEYS.map((k) => `--${k}:${palette[k]};`).join('');
}

/**
 * The page's theme CSS from its stored colours over the defaults (effectiveThemeColors): LIGHT and
 * DARK pin a palette; AUTO follows the visitor's prefers-color-scheme. `data-theme` on <html> lets
 * tests and visitors force one.
 */
export function themeCss(defaultTheme: string, colors: ThemeColors | null | undefined): string {
  const effective = effectiveThemeColors(colors);
  const light = paletteCss(effective.light);
  const dark = paletteCss(effective.dark);
  if (defaultTheme === 'DARK') return `:root{${dark}}html[data-theme=light]{${light}}`;
  if (defaultTheme === 'LIGHT') return `:root{${light}}html[data-theme=dark]{${dark}}`;
  return `:root{${light}}@media (prefers-color-scheme: dark){:root{${dark}}}html[data-theme=light]{${light}}html[data-theme=dark]{${dark}}`;
}
