import path from 'node:path';

/** One local file a browser or multi-step script imports, as the checkly CLI sends it. */
export interface DependencyFile {
  /** Project-relative POSIX path (`checks/helpers/login.ts`). */
  path: string;
  content?: string | null;
}

/** The files of one run, paths normalised and known to stay inside the run's folder. */
export interface ScriptFiles {
  /** Where the entry script sits: the normalised `scriptPath`, or `script.js` for an inline script. */
  entry: string;
  /** The dependencies to write, in the order sent, without a copy of the entry. */
  files: { path: string; content: string }[];
}

/** The check schema's own bounds (`Dependency`, `dependencies` maxItems 100), kept for stored checks too. */
export const MAX_SCRIPT_FILES = 100;
export const MAX_SCRIPT_FILE_CHARS = 1_000_000;
/** All dependencies of one check together, in UTF-8 bytes: a whole `checkly test` body is at most 10 MB. */
export const MAX_SCRIPT_FILES_BYTES = 10 * 1024 * 1024;
/** Where an inline script (no `scriptPath`) lives in the run's folder; relative imports resolve from the root. */
export const INLINE_SCRIPT_PATH = 'script.js';

/** A project path in its normal form (`a/b.js`), or why it cannot be written inside the run's folder. */
export function normaliseProjectPath(raw: unknown): { path: string } | { error: string } {
  if (typeof raw !== 'string' || raw === '') return { error: 'is empty' };
  if (raw.length > 1024) return { error: 'is longer than 1024 characters' };
  if (raw.includes('\0')) return { error: 'contains a NUL character' };
  // The CLI sends POSIX paths on every platform; a backslash would mean a Windows path it did not convert.
  if (raw.includes('\\')) return { error: 'must use / as separator' };
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return { error: 'must be relative to the project' };
  const normal = path.posix.normalize(raw);
  if (normal === '..' || normal.startsWith('../')) return { error: 'points outside the project' };
  if (normal === '.' || normal.endsWith('/')) return { error: 'names a folder, not a file' };
  return { path: normal };
}

/**
 * The files of a BROWSER or MULTI_STEP run from the check's `scriptPath` and `dependencies`, or
 * the first reason they cannot be written: a path that is empty, absolute or leaves the project
 * (`../../etc/passwd`), two files at one path, a file where another needs a folder, more than
 * MAX_SCRIPT_FILES files, one longer than MAX_SCRIPT_FILE_CHARS or all together above
 * MAX_SCRIPT_FILES_BYTES. A dependency at the entry's own path (an import cycle back to the entry)
 * is dropped when it holds the script itself.
 */
export function planScriptFiles(script: string, scriptPath: unknown, dependencies: unknown): ScriptFiles | { error: string } {
  let entry = INLINE_SCRIPT_PATH;
  if (scriptPath !== null && scriptPath !== undefined && scriptPath !== '') {
    const p = normaliseProjectPath(scriptPath);
    if ('error' in p) return { error: `scriptPath "${String(scriptPath)}" ${p.error}` };
    entry = p.path;
  }
  const deps = dependencies ?? [];
  if (!Array.isArray(deps)) return { error: 'dependencies must be a list of {path, content}' };
  if (deps.length > MAX_SCRIPT_FILES) return { error: `a check may have at most ${MAX_SCRIPT_FILES} dependencies (it has ${deps.length})` };
  const files: ScriptFiles['files'] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const [i, dep] of deps.entries()) {
    const raw = (dep as DependencyFile | null)?.path;
    const p = normaliseProjectPath(raw);
    if ('error' in p) return { error: `dependencies.${i}.path "${typeof raw === 'string' ? raw : ''}" ${p.error}` };
    const content = (dep as DependencyFile).content ?? '';
    if (typeof content !== 'string') return { error: `dependencies.${i}.content must be text` };
    if (content.length > MAX_SCRIPT_FILE_CHARS) return { error: `dependency ${p.path} is longer than ${MAX_SCRIPT_FILE_CHARS} characters` };
    if (p.path === entry) {
      if (content === script) continue;
      return { error: `dependency ${p.path} is the script's own path with other content` };
    }
    if (seen.has(p.path)) return { error: `dependency ${p.path} is listed twice` };
    seen.add(p.path);
    bytes += Buffer.byteLength(content, 'utf8');
    if (bytes > MAX_SCRIPT_FILES_BYTES) return { error: `the dependencies are larger than ${MAX_SCRIPT_FILES_BYTES} bytes together` };
    files.push({ path: p.path, content });
  }
  // A file cannot also be a folder another file sits in (`a.js` and `a.js/b.js`).
  const all = [entry, ...seen];
  for (const p of all) {
    const parts = p.split('/');
    for (let n = 1; n < parts.length; n++) {
      const folder = parts.slice(0, n).join('/');
      if (folder === entry || seen.has(folder)) return { error: `dependency ${p} needs ${folder} to be a folder, but it is a file` };
    }
  }
  return { entry, files };
}
