import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The messages `npm run lint` gives `text` as if it were a file of src/. */
async function lintAsSource(text: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(text, { filePath: `${ROOT}src/domain/lint-probe.ts` });
  return (result?.messages ?? []).map((m) => `${m.line}: ${m.message}`);
}

describe('`any` in src/ (npm run lint)', () => {
  it('is refused as a parameter, a cast or a type argument', async () => {
    const messages = await lintAsSource([
      'export const id = (x: any) => x;',
      'export const cast = (y: unknown) => y as any;',
      'export const list: Array<any> = [];',
    ].join('\n'));
    expect(messages).toEqual([
      expect.stringMatching(/^1: No `any`/),
      expect.stringMatching(/^2: No `any`/),
      expect.stringMatching(/^3: No `any`/),
    ]);
  }, 60_000);

  it('is let through only as the values of a JSON document, Record<string, any>', async () => {
    expect(await lintAsSource('export type Document = Record<string, any>;\nexport const read = (d: unknown) => d as Record<string, unknown>;\n')).toEqual([]);
  }, 60_000);
});
