import { Kind, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type ObjectTypeDefinitionNode } from 'graphql';

const isObject = (def: DefinitionNode) => def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.OBJECT_TYPE_EXTENSION;
const isInterface = (def: DefinitionNode) => def.kind === Kind.INTERFACE_TYPE_DEFINITION || def.kind === Kind.INTERFACE_TYPE_EXTENSION;

/**
 * The document with every interface field (from its definition and its extensions) copied into each
 * object type implementing the interface that does not declare that field itself. GraphQL wants an
 * interface's fields repeated on every implementing type; written once in the SDL modules, they are
 * completed here, before the schema is built and before codegen reads it (codegen.yml loads the SDL
 * through loadTypeDefs), so every consumer sees the same complete schema. A field an object type
 * declares itself (a narrower type, its own description) is kept as written. Copied fields come first,
 * in the interface's order, then the type's own.
 */
export function withInterfaceFields(document: DocumentNode): DocumentNode {
  const interfaceFields = new Map<string, FieldDefinitionNode[]>();
  const declared = new Map<string, Set<string>>();
  const implemented = new Map<string, string[]>();
  for (const def of document.definitions) {
    if (isInterface(def)) {
      const d = def as { name: { value: string }; fields?: readonly FieldDefinitionNode[] };
      interfaceFields.set(d.name.value, [...(interfaceFields.get(d.name.value) ?? []), ...(d.fields ?? [])]);
    } else if (isObject(def)) {
      const d = def as ObjectTypeDefinitionNode;
      const names = declared.get(d.name.value) ?? new Set<string>();
      for (const f of d.fields ?? []) names.add(f.name.value);
      declared.set(d.name.value, names);
      implemented.set(d.name.value, [...(implemented.get(d.name.value) ?? []), ...(d.interfaces ?? []).map((i) => i.name.value)]);
    }
  }
  return {
    ...document,
    definitions: document.definitions.map((def) => {
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION) return def;
      const own = declared.get(def.name.value)!;
      const copied: FieldDefinitionNode[] = [];
      for (const name of implemented.get(def.name.value) ?? []) {
        for (const field of interfaceFields.get(name) ?? []) {
          if (own.has(field.name.value) || copied.some((c) => c.name.value === field.name.value)) continue;
          copied.push(field);
        }
      }
      return copied.length === 0 ? def : { ...def, fields: [...copied, ...(def.fields ?? [])] };
    }),
  };
}
