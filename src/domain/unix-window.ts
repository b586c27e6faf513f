import type { Issue } from './lookout-error.js';

/** The bounds of a list filtered by `from`/`to` in UNIX seconds: `from` inclusive, `to` exclusive. */
export interface UnixWindow {
  from?: Date;
  to?: Date;
}

/** `from` must come before `to` when both are given (an empty window is a mistake, not a query). */
export function unixWindowIssues(from: number | undefined, to: number | undefined): Issue[] {
  return from !== undefined && to !== undefined && from >= to ? [{ key: 'from', message: 'must be before to' }] : [];
}

/** The dates of a window given in UNIX seconds. */
export function unixWindow(from: number | undefined, to: number | undefined): UnixWindow {
  return {
    ...(from !== undefined ? { from: new Date(from * 1000) } : {}),
    ...(to !== undefined ? { to: new Date(to * 1000) } : {}),
  };
}
