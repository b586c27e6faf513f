import { readdirSync, readFileSync } from 'node:fs';
import { parse, print } from 'graphql';
import { withInterfaceFields } from './with-interface-fields.js';

/**
 * The SDL of every module in schema/, in file-name order, completed (withInterfaceFields): the schema
 * the server builds and codegen reads (through codegen-schema.ts), so both see the same types.
 */
export function loadTypeDefs(): string {
  const dir = new URL('../../schema/', import.meta.url);
  const modules = readdirSync(dir).filter((f) => f.endsWith('.graphql')).sort().map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n');
  return print(withInterfaceFields(parse(modules)));
}
