import { readdirSync, readFileSync } from 'node:fs';

/** Parent pid and process group of each running process, from /proc (empty where there is none). */
function processTable(): Map<number, { ppid: number; pgid: number }> {
  const table = new Map<number, { ppid: number; pgid: number }>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), { ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

/** `pid` and every process below it, parents before children. */
export function processTree(pid: number, table = processTable()): number[] {
  const children = new Map<number, number[]>();
  for (const [child, { ppid }] of table) {
    const list = children.get(ppid);
    if (list) list.push(child);
    else children.set(ppid, [child]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/**
 * SIGKILLs `pid` and all its descendants. Playwright starts the browser in a process group of its
 * own (detached), so killing the child's group would leave Chromium running: the tree is read from
 * /proc first, then every member is killed, and each group led by a member is killed as a whole so
 * a renderer forked in between goes too. Where /proc is missing (not Linux) only `pid` is killed.
 */
export function killProcessTree(pid: number): void {
  const table = processTable();
  const tree = processTree(pid, table);
  for (const member of tree) {
    signal(member);
    if (table.get(member)?.pgid === member && member !== process.pid) signal(-member);
  }
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
