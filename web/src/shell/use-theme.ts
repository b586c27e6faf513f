import { useEffect, useState } from 'react';

/** The colour scheme the reader chose; `system` follows prefers-color-scheme. */
export type Theme = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'lookout.theme';

/** The chosen theme (kept in localStorage), applied as data-theme on <html>. */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() => {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  });
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
