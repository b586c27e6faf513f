// The project's own files for browser-check-child.mjs: a small CommonJS loader over the files a
// check's `dependencies` wrote into the run's folder. Plain JavaScript, like the child.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const nodeRequire = createRequire(import.meta.url);

const LOADERS = {
  '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx', '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.json': 'json',
};
const EXTENSIONS = Object.keys(LOADERS);
const TS = /\.(?:ts|mts|cts|tsx)$/;

let esbuild = null;
/** esbuild, loaded on first use (tsx brings it; only TypeScript and ES module files need it). */
function transformer() {
  esbuild ??= nodeRequire('esbuild');
  return esbuild;
}

/** True for a path whose types must be stripped before it runs. */
export function isTypeScript(file) {
  return TS.test(file);
}

/**
 * The entry script's source without TypeScript types, ES module syntax kept (the child turns
 * static imports into requires itself and runs the body as an async function).
 */
export function stripTypes(source, file) {
  return transformer().transformSync(source, {
    loader: file.endsWith('x') ? 'tsx' : 'ts', sourcefile: file, target: 'node20', format: undefined,
  }).code;
}

/**
 * `require` for each file of the project: `./x` and `../x` resolve from the requiring file among
 * `files` (project-relative paths written under `projectDir`), trying the path as given, then
 * with each known extension, then as a folder's `index`; `./x.js` also finds `x.ts` (TypeScript's
 * own convention). Any other id goes to `fallback` (built-ins and @playwright/test). Each file
 * runs once (cached, cycles see the partial exports as in Node); ES module and TypeScript files
 * are compiled to CommonJS by esbuild, JSON files parsed.
 */
export function createProjectModules({ projectDir, files, fallback }) {
  const known = new Set(files);
  const cache = new Map();

  function resolve(spec, from) {
    if (spec.startsWith('/')) throw new Error(`Cannot require "${spec}" from ${from}: only paths relative to the file are allowed`);
    const wanted = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    if (wanted === '..' || wanted.startsWith('../')) throw new Error(`Cannot require "${spec}" from ${from}: it points outside the project`);
    const candidates = [wanted, ...EXTENSIONS.map((e) => wanted + e), ...EXTENSIONS.map((e) => `${wanted}/index${e}`)];
    if (/\.(?:m|c)?js$/.test(wanted)) candidates.push(wanted.replace(/js$/, 'ts'), wanted.replace(/js$/, 'tsx'));
    const found = candidates.find((c) => known.has(c));
    if (found) return found;
    throw new Error(`Cannot require "${spec}" from ${from}: ${wanted} is not among the check's files (its dependencies as the CLI sent them)`);
  }

  function load(file) {
    const cached = cache.get(file);
    if (cached) return cached.exports;
    const abs = path.join(projectDir, file);
    const source = readFileSync(abs, 'utf8');
    const module = { exports: {}, id: file, filename: abs, loaded: false };
    cache.set(file, module);
    try {
      const ext = path.posix.extname(file);
      const loader = LOADERS[ext] ?? 'js';
      if (loader === 'json') {
        module.exports = JSON.parse(source);
      } else {
        const code = transformer().transformSync(source, { loader, format: 'cjs', sourcefile: file, target: 'node20' }).code;
        const fn = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, {
          filename: file,
          importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
        }).runInThisContext();
        fn.call(module.exports, module.exports, requireFrom(file), module, abs, path.dirname(abs));
      }
      module.loaded = true;
      return module.exports;
    } catch (err) {
      cache.delete(file);
      throw err;
    }
  }

  /** The `require` a file at `from` (project-relative) gets. */
  function requireFrom(from) {
    return (id) => {
      if (typeof id === 'string' && (id.startsWith('./') || id.startsWith('../') || id === '.' || id === '..' || id.startsWith('/'))) {
        return load(resolve(id, from));
      }
      return fallback(id);
    };
  }

  return { requireFrom };
}
