import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
/** Lines a function may span before it needs a reason. */
const MAX_LINES = 150;
/** The words a long function's doc comment starts its reason with. */
const MARK = 'Long by design:';

interface LongFunction { where: string; name: string; lines: number; explained: boolean }

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === '__generated__') return [];
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.m?ts$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The node whose leading comments document a function: its declaration statement, or itself. */
function documented(node: ts.Node): ts.Node {
  let n: ts.Node = node;
  while (n.parent && (ts.isVariableDeclaration(n.parent) || ts.isVariableDeclarationList(n.parent) || ts.isVariableStatement(n.parent)
    || ts.isPropertyAssignment(n.parent) || ts.isExportAssignment(n.parent))) n = n.parent;
  return n;
}

/** Every function of `text` longer than MAX_LINES, and whether its doc comment says why. */
function longFunctions(file: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - start + 1;
      if (lines > MAX_LINES) {
        const holder = documented(node);
        const comments = ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? [];
        const explained = comments.some((c) => text.slice(c.pos, c.end).includes(MARK));
        const name = (node as { name?: ts.Node }).name?.getText(source) ?? (ts.isVariableStatement(holder) ? holder.declarationList.declarations[0]?.name.getText(source) : '(anonymous)');
        found.push({ where: `${path.relative(SRC, file)}:${start + 1}`, name: name ?? '(anonymous)', lines, explained });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe(`functions of src/ (at most ${MAX_LINES} lines)`, () => {
  it(`are short, or their doc comment says why ("${MARK} …")`, () => {
    const unexplained = sourceFiles(SRC)
      .flatMap((file) => longFunctions(file, readFileSync(file, 'utf8')))
      .filter((f) => !f.explained)
      .map((f) => `${f.where} ${f.name} (${f.lines} lines)`);
    expect(unexplained).toEqual([]);
  });

  it('finds a long function without a reason, and accepts one with', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const plain = `/** Does much. */\nexport function big() {\n${body}\n}\n`;
    const reasoned = `/**\n * Does much.\n * ${MARK} every line is one constant.\n */\nexport function big() {\n${body}\n}\n`;
    const arrow = `/** ${MARK} a table. */\nexport const big = () => {\n${body}\n};\n`;
    expect(longFunctions('plain.ts', plain)).toEqual([expect.objectContaining({ name: 'big', explained: false })]);
    expect(longFunctions('reasoned.ts', reasoned)).toEqual([expect.objectContaining({ name: 'big', explained: true })]);
    expect(longFunctions('arrow.ts', arrow)).toEqual([expect.objectContaining({ name: 'big', explained: true })]);
    expect(longFunctions('short.ts', '/** Small. */\nexport function small() {\n  return 1;\n}\n')).toEqual([]);
  });
});
