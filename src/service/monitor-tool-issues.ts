import type { CheckType } from '../domain/catalog.js';
import type { Issue } from '../domain/lookout-error.js';
import { findTraceroute } from '../runner/traceroute-command.js';

/**
 * Why a check of `type` cannot run on this server for want of a program, as issues of its
 * `checkType` (a 400 at the door rather than runs that fail later): TRACEROUTE monitors need
 * the traceroute program.
 */
export function monitorToolIssues(type: CheckType, key = 'checkType', findTool: () => string | null = findTraceroute): Issue[] {
  if (type !== 'TRACEROUTE' || findTool() !== null) return [];
  return [{ key, message: 'TRACEROUTE monitors need the traceroute program, which is not installed on this server (apt-get install traceroute)' }];
}
