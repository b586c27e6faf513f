import { useCallback, useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}
const snapshot = () => window.location.pathname + window.location.search;

/** Moves to a console path without reloading (history.pushState, or replaceState for filters). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  for (const listener of listeners) listener();
  if (!options.replace) window.scrollTo(0, 0);
}

/** The current path and query string, re-rendering on navigation and back/forward. */
export function useRoute(): { path: string; search: string } {
  const location = useSyncExternalStore(subscribe, snapshot);
  const index = location.indexOf('?');
  return index < 0 ? { path: location, search: '' } : { path: location.slice(0, index), search: location.slice(index) };
}

/** onClick of an in-app link: plain clicks navigate in place; modified clicks open as the browser would. */
export function useLinkHandler(to: string) {
  return useCallback((event: React.MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  }, [to]);
}
