/** Check types and states the list can be narrowed to (the schema's CheckType and CheckState). */
export const CHECK_TYPES = ['API', 'BROWSER', 'MULTI_STEP', 'HEARTBEAT', 'TCP', 'URL', 'DNS', 'ICMP', 'AGENTIC', 'PLAYWRIGHT'] as const;
export const CHECK_STATES = ['PASSING', 'FAILING', 'DEGRADED'] as const;
export type CheckTypeName = (typeof CHECK_TYPES)[number];
export type CheckStateName = (typeof CHECK_STATES)[number];

/** What the checks list is narrowed to; every part optional, all must hold. */
export interface CheckListFilter {
  text?: string;
  tag?: string;
  type?: CheckTypeName;
  state?: CheckStateName;
}

/** The list filter read from the page's query string (`?q=&tag=&type=&state=`); unknown values are dropped. */
export function parseCheckFilter(search: string | URLSearchParams): CheckListFilter {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const filter: CheckListFilter = {};
  const text = params.get('q')?.trim();
  if (text) filter.text = text;
  const tag = params.get('tag')?.trim();
  if (tag) filter.tag = tag;
  const type = params.get('type')?.toUpperCase();
  if (type && (CHECK_TYPES as readonly string[]).includes(type)) filter.type = type as CheckTypeName;
  const state = params.get('state')?.toUpperCase();
  if (state && (CHECK_STATES as readonly string[]).includes(state)) filter.state = state as CheckStateName;
  return filter;
}

/** The query string of a filter (no leading `?`; empty for no filter), so a filtered list can be linked. */
export function formatCheckFilter(filter: CheckListFilter): string {
  const params = new URLSearchParams();
  if (filter.text?.trim()) params.set('q', filter.text.trim());
  if (filter.tag?.trim()) params.set('tag', filter.tag.trim());
  if (filter.type) params.set('type', filter.type);
  if (filter.state) params.set('state', filter.state);
  return params.toString();
}

/** The GraphQL `CheckFilter` the server narrows the list with. */
export function toGraphqlCheckFilter(filter: CheckListFilter): { search?: string; tags?: string[]; checkType?: CheckTypeName; state?: CheckStateName } {
  const out: { search?: string; tags?: string[]; checkType?: CheckTypeName; state?: CheckStateName } = {};
  if (filter.text?.trim()) out.search = filter.text.trim();
  if (filter.tag?.trim()) out.tags = [filter.tag.trim()];
  if (filter.type) out.checkType = filter.type;
  if (filter.state) out.state = filter.state;
  return out;
}

/** The fields of a listed check the filter looks at. */
export interface FilterableCheck {
  name: string;
  tags: readonly string[];
  checkType: string;
  /** Current health; null or absent before the first result. */
  health?: string | null;
}

/**
 * Whether a check the list already holds matches the filter, the way the server narrows it (name
 * contains the text, case-insensitively; carries the tag; has the type; is in the state). Lets the
 * list answer typing at once while the server's answer is on its way, and drop rows a live status
 * change moved out of a state filter.
 */
export function matchesCheckFilter(check: FilterableCheck, filter: CheckListFilter): boolean {
  const text = filter.text?.trim().toLowerCase();
  if (text && !check.name.toLowerCase().includes(text)) return false;
  const tag = filter.tag?.trim();
  if (tag && !check.tags.includes(tag)) return false;
  if (filter.type && check.checkType !== filter.type) return false;
  if (filter.state && check.health !== filter.state) return false;
  return true;
}

/** Whether the filter narrows anything. */
export function isFilterEmpty(filter: CheckListFilter): boolean {
  return formatCheckFilter(filter) === '';
}
