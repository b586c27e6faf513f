// Read by codegen.yml (through tsx): codegen types the completed schema the server builds, not the
// raw modules, whose object types leave their interfaces' fields out.
import { loadTypeDefs } from './load-type-defs.js';

/** The complete SDL, as codegen's code-file loader expects it (a `schema` export). */
export const schema = loadTypeDefs();
