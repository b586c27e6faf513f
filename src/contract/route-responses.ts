import { ref, type JsonSchema } from './response-shape.js';

/** A 204 answer: no body. */
export const NO_CONTENT: JsonSchema = { type: 'null', description: 'No Content' };

/** The `response` of a route: its success answers and the errors only it can produce (create-api adds those every route shares). */
export function responses(success: Record<number, JsonSchema>, ...errors: number[]): Record<number, JsonSchema> {
  const out: Record<number, JsonSchema> = { ...success };
  for (const status of errors) out[status] = ref('Error');
  return out;
}

/** A non-JSON answer of `mediaTypes`, e.g. an SVG badge or a text list. */
export function nonJson(description: string, mediaTypes: string[], schema: JsonSchema = { type: 'string' }): JsonSchema {
  return { description, content: Object.fromEntries(mediaTypes.map((t) => [t, { schema }])) };
}
