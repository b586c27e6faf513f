import { useEffect, useState } from 'react';

/** The colour scheme the reader chose; `system` follows prefers-color-scheme. */
export type Theme = 'system' | 'light' | 'dark';
/** Where the choice is kept: GraphiQL and the API reference (/docs) read it too. */
export const THEME_STORAGE_KEY = 'lookout.theme';
const STORAGE_KEY = THEME_STORAGE_KEY;

/** The stored choice: `light` or `dark`, otherwise `system`. */
export function storedTheme(storage: Pick<Storage, 'getItem'> = localStorage): Theme {
  const stored = storage.getItem(STORAGE_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The chosen theme (kept in localStorage), applied as data-theme on <html>. */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() => storedTheme());
  useEffect(() => {
    if (theme === 'system') {
      delete document.documentElement.dataset.theme;
      localStorage.removeItem(STORAGE_KEY);
    } else {
      document.documentElement.dataset.theme = theme;
      localStorage.setItem(STORAGE_KEY, theme);
    }
  }, [theme]);
  return [theme, setTheme];
}
