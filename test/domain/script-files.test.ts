import { describe, expect, it } from 'vitest';
import {
  INLINE_SCRIPT_PATH, MAX_SCRIPT_FILE_CHARS, MAX_SCRIPT_FILES, MAX_SCRIPT_FILES_BYTES, normaliseProjectPath, planScriptFiles,
} from '../../src/domain/script-files.js';
import { resolveSharedFiles } from '../../src/domain/shared-file-refs.js';

describe('a project path of a check file', () => {
  it.each([
    ['helpers/login.js', 'helpers/login.js'],
    ['./helpers/login.js', 'helpers/login.js'],
    ['checks/../pages/home.ts', 'pages/home.ts'],
    ['a//b/./c.json', 'a/b/c.json'],
  ])('%s is kept as %s', (raw, normal) => {
    expect(normaliseProjectPath(raw)).toEqual({ path: normal });
  });

  it.each([
    ['../../etc/passwd', 'points outside the project'],
    ['checks/../../secret.js', 'points outside the project'],
    ['..', 'points outside the project'],
    ['/etc/passwd', 'must be relative to the project'],
    ['C:/Windows/win.ini', 'must be relative to the project'],
    ['helpers\\login.js', 'must use / as separator'],
    ['a/\0.js', 'contains a NUL character'],
    ['', 'is empty'],
    ['.', 'names a folder, not a file'],
    ['helpers/', 'names a folder, not a file'],
    [42, 'is empty'],
  ])('%j is refused: %s', (raw, error) => {
    expect(normaliseProjectPath(raw)).toEqual({ error });
  });
});

describe('planning the files of a browser or multi-step run', () => {
  it('keeps the dependencies in their layout and places the entry at its scriptPath', () => {
    const plan = planScriptFiles('script', 'checks/home.spec.ts', [
      { path: 'checks/helpers/shop.ts', content: 'export const a = 1' },
      { path: './shared/site.js' },
    ]);
    expect(plan).toEqual({
      entry: 'checks/home.spec.ts',
      files: [{ path: 'checks/helpers/shop.ts', content: 'export const a = 1' }, { path: 'shared/site.js', content: '' }],
    });
  });

  it('places an inline script (no scriptPath) at the root, with no files', () => {
    expect(planScriptFiles('script', null, null)).toEqual({ entry: INLINE_SCRIPT_PATH, files: [] });
  });

  it('drops a dependency that is the entry itself (an import cycle back to it)', () => {
    expect(planScriptFiles('body', 'a.js', [{ path: 'a.js', content: 'body' }])).toEqual({ entry: 'a.js', files: [] });
  });

  it.each<[string, unknown, unknown, string]>([
    ['a dependency leaving the project', 'checks/a.js', [{ path: '../../etc/passwd', content: 'x' }], 'dependencies.0.path "../../etc/passwd" points outside the project'],
    ['an absolute dependency', 'checks/a.js', [{ path: 'ok.js' }, { path: '/tmp/x.js' }], 'dependencies.1.path "/tmp/x.js" must be relative to the project'],
    ['a scriptPath leaving the project', '../a.js', [], 'scriptPath "../a.js" points outside the project'],
    ['two dependencies at one path', 'a.js', [{ path: 'lib/x.js' }, { path: 'lib/./x.js' }], 'dependency lib/x.js is listed twice'],
    ['another file at the entry\'s path', 'a.js', [{ path: 'a.js', content: 'other' }], 'dependency a.js is the script\'s own path with other content'],
    ['a file where a folder must be', 'a.js', [{ path: 'lib' }, { path: 'lib/x.js' }], 'dependency lib/x.js needs lib to be a folder, but it is a file'],
    ['a file below the entry', 'a.js', [{ path: 'a.js/x.js' }], 'dependency a.js/x.js needs a.js to be a folder, but it is a file'],
    ['dependencies that are no list', 'a.js', { path: 'x.js' }, 'dependencies must be a list of {path, content}'],
    ['content that is no text', 'a.js', [{ path: 'x.js', content: 5 }], 'dependencies.0.content must be text'],
  ])('refuses %s', (_what, scriptPath, deps, error) => {
    expect(planScriptFiles('body', scriptPath, deps)).toEqual({ error });
  });

  it(`refuses more than ${MAX_SCRIPT_FILES} dependencies`, () => {
    const deps = Array.from({ length: MAX_SCRIPT_FILES + 1 }, (_, i) => ({ path: `f${i}.js` }));
    expect(planScriptFiles('x', 'a.js', deps)).toEqual({ error: `a check may have at most ${MAX_SCRIPT_FILES} dependencies (it has ${MAX_SCRIPT_FILES + 1})` });
    expect('error' in planScriptFiles('x', 'a.js', deps.slice(1))).toBe(false);
  });

  it(`refuses one file longer than ${MAX_SCRIPT_FILE_CHARS} characters`, () => {
    const long = 'x'.repeat(MAX_SCRIPT_FILE_CHARS + 1);
    expect(planScriptFiles('x', 'a.js', [{ path: 'big.js', content: long }])).toEqual({ error: `dependency big.js is longer than ${MAX_SCRIPT_FILE_CHARS} characters` });
  });

  it(`refuses files above ${MAX_SCRIPT_FILES_BYTES} UTF-8 bytes together, each within its own limit`, () => {
    // Each emoji is 2 characters and 4 UTF-8 bytes: 450,000 of them are 900,000 characters and 1.8 MB.
    const wide = '😀'.repeat(450_000);
    const deps = Array.from({ length: 6 }, (_, i) => ({ path: `f${i}.js`, content: wide }));
    const over = planScriptFiles('x', 'a.js', deps);
    expect('error' in over && over.error).toBe(`the dependencies are larger than ${MAX_SCRIPT_FILES_BYTES} bytes together`);
    expect('error' in planScriptFiles('x', 'a.js', deps.slice(0, 5))).toBe(false);
  });
});

describe('resolving the CLI\'s shared-file indexes', () => {
  const shared = [{ path: 'a.js', content: 'A' }, { path: 'b.js' }, { content: 'no path' }];

  it('replaces each index by its file and keeps files sent whole', () => {
    expect(resolveSharedFiles([1, { path: 'c.js', content: 'C' }, 0], shared, 'deps')).toEqual({
      files: [{ path: 'b.js', content: '' }, { path: 'c.js', content: 'C' }, { path: 'a.js', content: 'A' }],
    });
  });

  it.each([[3], [2], [-1], [0.5]])('names the entry of index %s, which holds no file', (ref) => {
    expect(resolveSharedFiles([0, ref], shared, 'checkRunJobs.0.dependencies')).toEqual({
      issues: [{ key: 'checkRunJobs.0.dependencies.1', message: `names shared file ${ref}, which sharedFiles does not hold as {path, content}` }],
    });
  });
});
