import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScriptFiles } from '../domain/script-files.js';

/**
 * Writes a run's dependency files (see planScriptFiles) under `dir`, keeping their relative
 * layout. `dir` must be a fresh folder of the run: files are created exclusively (`wx`), so
 * nothing already there, a symbolic link included, is ever followed or overwritten, and each
 * target is checked once more to lie inside `dir` before anything is written.
 */
export async function writeScriptFiles(dir: string, files: ScriptFiles['files']): Promise<void> {
  const root = path.resolve(dir);
  for (const file of files) {
    const target = path.resolve(root, file.path);
    if (!target.startsWith(root + path.sep)) throw new Error(`dependency ${file.path} points outside the run's folder`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content, { flag: 'wx' });
  }
}
