import path from 'node:path';
import { build, type Loader, type Message, type Plugin } from 'esbuild';

/** One file of a check's project, as the CLI sent it (project-relative POSIX path). */
export interface ProjectFile {
  path: string;
  content: string;
}

/** The bundle of a script, or why it could not be built (already in the user's terms: `file:line`). */
export type UserScriptBundle =
  | { ok: true; code: string }
  | { ok: false; code: 'SCRIPT_SYNTAX_ERROR' | 'SCRIPT_ERROR'; message: string };

/** The global the bundle asks for each package import (`@playwright/test`, `node:crypto`, …): the runtime child defines it. */
export const RUNTIME_REQUIRE_GLOBAL = '__lookoutRequire';

/** Where the bundle is written in the run's project folder: its source map names the files relative to it. */
export const BUNDLE_FILE = '.lookout-bundle.mjs';

const PROJECT = 'lookout-project';
const RUNTIME = 'lookout-runtime';
const LOADERS: Record<string, Loader> = {
  '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx', '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.json': 'json',
};
const EXTENSIONS = Object.keys(LOADERS);
const STATIC_MODULE_SYNTAX = /^\s*(?:import(?:\s+[\w$]|\s*[*{'"])|export\s)/m;

/**
 * Whether a script must be bundled: TypeScript, ES module syntax (a static `import` or `export`
 * line) or project files beside it. Other scripts keep running as they always did, as the body of
 * an async function (top-level `return` included).
 */
export function needsBundle(entry: string, script: string, files: readonly ProjectFile[]): boolean {
  return /\.(?:ts|mts|cts|tsx|mjs)$/.test(entry) || files.length > 0 || STATIC_MODULE_SYNTAX.test(script);
}

/**
 * Bundles `script` (at project path `entry`) with the project `files` it imports into one ES
 * module, with an inline source map naming the user's files relative to BUNDLE_FILE at the project
 * root (so `node --enable-source-maps` reports their lines). esbuild reads nothing from disk: every
 * relative import resolves among `files` (as Node and TypeScript would: the path, with each known
 * extension, a folder's index, `./x.js` for `x.ts`); an import leaving the project is refused. Every
 * other import (built-in modules, packages) becomes a call of the RUNTIME_REQUIRE_GLOBAL the child
 * defines, which decides what a script may use. TypeScript types are stripped, never checked.
 */
export async function bundleUserScript(entry: string, script: string, files: readonly ProjectFile[]): Promise<UserScriptBundle> {
  const contents = new Map<string, string>(files.map((f) => [f.path, f.content]));
  contents.set(entry, script);
  const plugin: Plugin = {
    name: 'lookout-project-files',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return { path: entry, namespace: PROJECT };
        const spec = args.path;
        if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..' || spec.startsWith('/')) {
          const found = resolveProjectFile(spec, args.importer, contents, args.kind === 'require-call' ? 'require' : 'import');
          return typeof found === 'string' ? { path: found, namespace: PROJECT } : { errors: [{ text: found.error }] };
        }
        return { path: spec, namespace: RUNTIME };
      });
      b.onLoad({ filter: /.*/, namespace: PROJECT }, (args) => ({
        contents: contents.get(args.path) ?? '',
        loader: LOADERS[path.posix.extname(args.path)] ?? 'js',
      }));
      b.onLoad({ filter: /.*/, namespace: RUNTIME }, (args) => ({
        contents: `module.exports = globalThis.${RUNTIME_REQUIRE_GLOBAL}(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
  try {
    const out = await build({
      entryPoints: [entry], bundle: true, write: false, format: 'esm', platform: 'node', target: 'node20',
      sourcemap: 'external', sourcesContent: false, outfile: BUNDLE_FILE, plugins: [plugin], logLevel: 'silent',
      tsconfigRaw: {}, absWorkingDir: '/', charset: 'utf8', legalComments: 'none', keepNames: true,
    });
    const code = out.outputFiles.find((f) => f.path.endsWith('.mjs'))?.text ?? '';
    const map = out.outputFiles.find((f) => f.path.endsWith('.map'))?.text;
    return { ok: true, code: withInlineMap(code, map) };
  } catch (err) {
    const first = (err as { errors?: Message[] }).errors?.[0];
    if (!first) return { ok: false, code: 'SCRIPT_ERROR', message: err instanceof Error ? err.message : String(err) };
    return describeBuildError(first);
  }
}

/** A project-relative `spec` from `importer`, among the files sent, or why it is none of them. */
function resolveProjectFile(spec: string, importer: string, contents: ReadonlyMap<string, string>, verb: string): string | { error: string } {
  if (spec.startsWith('/')) return { error: `Cannot ${verb} "${spec}" from ${importer}: only paths relative to the file are allowed` };
  const wanted = path.posix.normalize(path.posix.join(path.posix.dirname(importer), spec));
  if (wanted === '..' || wanted.startsWith('../')) return { error: `Cannot ${verb} "${spec}" from ${importer}: it points outside the project` };
  const candidates = [wanted, ...EXTENSIONS.map((e) => wanted + e), ...EXTENSIONS.map((e) => `${wanted}/index${e}`)];
  if (/\.(?:m|c)?js$/.test(wanted)) candidates.push(wanted.replace(/js$/, 'ts'), wanted.replace(/js$/, 'tsx'));
  const found = candidates.find((c) => contents.has(c));
  return found ?? { error: `Cannot ${verb} "${spec}" from ${importer}: ${wanted} is not among the check's files (the dependencies the CLI sent)` };
}

/** The map inline, its sources the project paths (esbuild names them `<namespace>:<path>`). */
function withInlineMap(code: string, mapText: string | undefined): string {
  const body = code.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
  if (!mapText) return body;
  const map = JSON.parse(mapText) as { sources: string[] };
  map.sources = map.sources.map((s) => (s.startsWith(`${PROJECT}:`) ? s.slice(PROJECT.length + 1) : `lookout-runtime/${s.replace(/^[^:]*:/, '')}`));
  return `${body}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
}

function describeBuildError(m: Message): UserScriptBundle {
  const where = m.location ? ` (${m.location.file.replace(/^[\w-]+:/, '')}:${m.location.line})` : '';
  const unresolved = /^(?:Cannot (?:import|require)|Could not resolve)/.test(m.text);
  return unresolved
    ? { ok: false, code: 'SCRIPT_ERROR', message: `Error: ${m.text}${where}` }
    : { ok: false, code: 'SCRIPT_SYNTAX_ERROR', message: `SyntaxError: ${m.text}${where}` };
}
