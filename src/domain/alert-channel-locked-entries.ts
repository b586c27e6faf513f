import type { AlertChannelType } from './catalog.js';
import type { Issue } from './lookout-error.js';

/**
 * Config lists of each channel type whose `{key, value, locked}` entries may be locked. A locked
 * entry's value is write-only, like a secret variable: it is sent with every delivery and never
 * read back.
 */
export const LOCKABLE_LISTS: Record<AlertChannelType, readonly string[]> = {
  EMAIL: [],
  SLACK: [],
  SLACK_APP: [],
  SMS: [],
  CALL: [],
  WEBHOOK: ['headers', 'queryParameters'],
  OPSGENIE: [],
  PAGERDUTY: [],
};

type Entry = Record<string, unknown>;

/** Lockable lists of `type`; none for a type this version does not know (a stored row may name one). */
const listsOf = (type: AlertChannelType): readonly string[] => LOCKABLE_LISTS[type] ?? [];

const isEntry = (v: unknown): v is Entry => v !== null && typeof v === 'object' && !Array.isArray(v);
const isLocked = (e: Entry) => e.locked === true;

/** The secrets key a locked value is stored under: its list and index, as validation names it (`headers.0`). */
export function lockedValueKey(list: string, index: number): string {
  return `${list}.${index}`;
}

/** `config` with `change` applied to each entry of each lockable list; other fields as they are. */
function mapEntries(type: AlertChannelType, config: Record<string, any>, change: (entry: Entry, key: string) => Entry): Record<string, any> {
  const out = { ...config };
  for (const list of listsOf(type)) {
    const entries: unknown = config[list];
    if (Array.isArray(entries)) out[list] = entries.map((e, i) => (isEntry(e) ? change(e, lockedValueKey(list, i)) : e));
  }
  return out;
}

/** The config as it reads back: every locked entry's value null, wherever it was stored. */
export function hideLockedValues(type: AlertChannelType, config: Record<string, any>): Record<string, any> {
  return mapEntries(type, config, (e) => (isLocked(e) ? { ...e, value: null } : e));
}

/** Splits the values of locked entries from a full config: the config keeps them as null. */
export function splitLockedValues(type: AlertChannelType, config: Record<string, any>): { config: Record<string, any>; values: Record<string, string> } {
  const values: Record<string, string> = {};
  const pub = mapEntries(type, config, (e, key) => {
    if (!isLocked(e)) return e;
    if (typeof e.value === 'string') values[key] = e.value;
    return { ...e, value: null };
  });
  return { config: pub, values };
}

/**
 * The full config, locked values put back from `values` (by list and index). A value still in
 * the config is kept: channels stored before locked values were split off hold them there.
 */
export function joinLockedValues(type: AlertChannelType, config: Record<string, any>, values: Record<string, string>): Record<string, any> {
  return mapEntries(type, config, (e, key) => (isLocked(e) && typeof values[key] === 'string' ? { ...e, value: values[key] } : e));
}

/**
 * The entries an update means, against the full stored config: a locked entry sent without a
 * value, or with null, keeps the stored value of the entry of the same key (header names ignoring
 * case), the n-th entry sent with a key taking the n-th stored one. Any value sent replaces it;
 * entries left out of a list are gone. Input not shaped like entries is left for validation.
 */
export function keepLockedValues(type: AlertChannelType, incoming: Record<string, any>, stored: Record<string, any>): Record<string, any> {
  const out = { ...incoming };
  for (const list of listsOf(type)) {
    const sent: unknown = incoming[list];
    if (!Array.isArray(sent)) continue;
    const norm = (key: string) => (list === 'headers' ? key.toLowerCase() : key);
    const storedValues = new Map<string, string[]>();
    for (const e of Array.isArray(stored[list]) ? (stored[list] as unknown[]) : []) {
      if (!isEntry(e) || typeof e.key !== 'string' || typeof e.value !== 'string') continue;
      const queue = storedValues.get(norm(e.key)) ?? [];
      queue.push(e.value);
      storedValues.set(norm(e.key), queue);
    }
    out[list] = sent.map((e) => {
      if (!isEntry(e) || typeof e.key !== 'string') return e;
      const kept = storedValues.get(norm(e.key))?.shift();
      return isLocked(e) && e.value == null && kept !== undefined ? { ...e, value: kept } : e;
    });
  }
  return out;
}

/**
 * Entries left without a value once stored values are kept: a locked entry whose key has no
 * stored value, or an unlocked one (unlocking an entry means sending its value). Keys name the
 * value as the client sent it (`config.headers.0.value`).
 */
export function missingValueIssues(type: AlertChannelType, config: Record<string, any>): Issue[] {
  const issues: Issue[] = [];
  for (const list of listsOf(type)) {
    const entries: unknown = config[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((e, i) => {
      if (!isEntry(e) || typeof e.value === 'string') return;
      issues.push({
        key: `config.${lockedValueKey(list, i)}.value`,
        message: isLocked(e)
          ? `is required: no stored value of "${String(e.key)}" to keep (a locked entry sent without a value keeps the stored value of the same key)`
          : 'is required (only a locked entry may leave it out, to keep its stored value)',
      });
    });
  }
  return issues;
}
