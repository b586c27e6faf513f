import type { PublicVersions } from './create-public-versions.js';
import type { StatusPageRow } from '../store/status-pages-repository.js';

/** Pages whose state is kept in memory at most. */
const MAX_CACHED_PAGES = 1000;
/** Look-up keys (page urls and custom domains) remembered at most. */
const MAX_ALIASES = 2 * MAX_CACHED_PAGES;
/**
 * Things memoised per page and version at most: the model and a dozen renderings of it are all a
 * page has, so this bound only matters if a memo name ever came from request input.
 */
const MAX_VALUES_PER_PAGE = 32;

/** A public page found for a visitor, with the account's public content version it was read at. */
export interface FoundPage {
  page: StatusPageRow;
  version: number;
  /** Memoised per version and minute: the model, and anything rendered from it. */
  memo<T>(key: string, build: () => Promise<T> | T): Promise<T>;
}

interface Entry {
  page: StatusPageRow;
  version: number;
  minute: number;
  values: Map<string, Promise<unknown>>;
}

/** Options of a page cache. */
export interface PageCacheOptions {
  /** The accounts' public content versions (see createPublicVersions). */
  versions: PublicVersions;
  now: () => Date;
}

/**
 * The memory of public status pages: each page's row and what was built from it, by page id, at
 * the account's public content version and minute. Bounded in pages, look-up keys and values per
 * page, so requests naming ever new hosts or urls cannot grow it.
 */
export function createPageCache({ versions, now }: PageCacheOptions) {
  /** Page state by page id, least recently used first. */
  const entries = new Map<string, Entry>();
  /** Which page a look-up key (`url:…`, `host:…`) found, least recently used first. */
  const aliases = new Map<string, string>();
  const lookups = new Map<string, Promise<Entry | null>>();

  function remember(entry: Entry): void {
    entries.delete(entry.page.id);
    entries.set(entry.page.id, entry);
    if (entries.size > MAX_CACHED_PAGES) entries.delete(entries.keys().next().value!);
  }

  function alias(key: string, pageId: string): void {
    aliases.delete(key);
    aliases.set(key, pageId);
    if (aliases.size > MAX_ALIASES) aliases.delete(aliases.keys().next().value!);
  }

  /**
   * The entry for `key` at the current version and minute. Concurrent requests that find the cache
   * stale share one look-up, and an entry another request stored meanwhile is reused, so a new
   * version is built once, not once per request in flight. A page is cached once however many keys
   * (its url, its custom domain) lead to it; a key that finds no page is not remembered.
   */
  async function current(key: string, lookup: () => Promise<StatusPageRow | undefined>): Promise<Entry | null> {
    const minute = Math.floor(now().getTime() / 60_000);
    const id = aliases.get(key);
    const cached = id === undefined ? undefined : entries.get(id);
    if (cached) {
      const version = await versions.get(cached.page.account_id);
      const latest = entries.get(cached.page.id) ?? cached;
      if (latest.version === version) {
        alias(key, latest.page.id);
        if (latest.minute === minute) {
          remember(latest);
          return latest;
        }
        const next = { ...latest, minute, values: new Map() };
        remember(next);
        return next;
      }
    }
    let pending = lookups.get(key);
    if (!pending) {
      pending = (async () => {
        const page = await lookup();
        if (!page) {
          aliases.delete(key);
          return null;
        }
        const version = await versions.get(page.account_id);
        const other = entries.get(page.id);
        // Another key of the same page may have built this version already: share what it built.
        const entry: Entry = other && other.version === version && other.minute === minute ? { ...other, page } : { page, version, minute, values: new Map() };
        remember(entry);
        alias(key, page.id);
        return entry;
      })().finally(() => lookups.delete(key));
      lookups.set(key, pending);
    }
    return pending;
  }

  async function find(key: string, lookup: () => Promise<StatusPageRow | undefined>): Promise<FoundPage | null> {
    const found = await current(key, lookup);
    if (!found) return null;
    return {
      page: found.page,
      version: found.version,
      memo<T>(name: string, build: () => Promise<T> | T): Promise<T> {
        let value = found.values.get(name) as Promise<T> | undefined;
        if (!value) {
          value = Promise.resolve().then(build);
          found.values.set(name, value);
          if (found.values.size > MAX_VALUES_PER_PAGE) found.values.delete(found.values.keys().next().value!);
          value.catch(() => found.values.delete(name));
        }
        return value;
      },
    };
  }

  return {
    /** The page `key` leads to (looked up by `lookup` when not cached or stale), or null. */
    find,

    /** How much the cache holds now: pages, look-up keys and memoised values (for tests and metrics). */
    size(): { pages: number; aliases: number; values: number } {
      let values = 0;
      for (const entry of entries.values()) values += entry.values.size;
      return { pages: entries.size, aliases: aliases.size, values };
    },
  };
}
export type PageCache = ReturnType<typeof createPageCache>;
