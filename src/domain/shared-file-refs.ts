import type { Issue } from './lookout-error.js';

/** The check keys the CLI sends as lists of shared-file indexes: browser and multi-step files, API setup and teardown files. */
export const SHARED_FILE_KEYS = ['dependencies', 'setupScriptDependencies', 'tearDownScriptDependencies'] as const;

/**
 * A check's `dependencies` with the CLI's shared-file indexes replaced by the files they name.
 * CLI v8 sends each project file once in the body's `sharedFiles` (`[{path, content}]`) and lists
 * a browser or multi-step check's imports as indexes into it, both for `checkly test` and
 * `checkly deploy`. Entries already given as `{path, content}` are kept as sent (the check schema
 * validates them after); an index with no such file is an issue at `<key>.<n>`.
 */
export function resolveSharedFiles(deps: unknown[], sharedFiles: unknown[], key: string): { files: unknown[] } | { issues: Issue[] } {
  const issues: Issue[] = [];
  const files = deps.map((dep, j) => {
    if (typeof dep !== 'number') return dep;
    const file = Number.isInteger(dep) && dep >= 0 ? sharedFiles[dep] as Record<string, unknown> | undefined : undefined;
    if (!file || typeof file !== 'object' || typeof file.path !== 'string' || (file.content !== undefined && file.content !== null && typeof file.content !== 'string')) {
      issues.push({ key: `${key}.${j}`, message: `names shared file ${dep}, which sharedFiles does not hold as {path, content}` });
      return null;
    }
    return { path: file.path, content: file.content ?? '' };
  });
  return issues.length > 0 ? { issues } : { files };
}
