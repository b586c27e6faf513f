/** A mutation's userError (schema: UserError). */
export interface UserErrorLike {
  field?: string | null;
  code: string;
  message: string;
}

/** userErrors split into those a form field shows and those the form shows as a whole. */
export interface FieldErrors {
  /** Messages by form field name. */
  byField: Record<string, string[]>;
  /** Errors of no known field (the input as a whole, TOO_MANY_ERRORS, an unknown path). */
  general: string[];
}

/**
 * Assigns each userError to the form field showing it: the field whose name equals the error's
 * dotted path or is its longest prefix (`request.assertions.0.target` → `request.assertions`).
 */
export function fieldErrors(errors: readonly UserErrorLike[], fields: readonly string[]): FieldErrors {
  const result: FieldErrors = { byField: {}, general: [] };
  for (const error of errors) {
    const path = error.field ?? '';
    const field = fields
      .filter((name) => path === name || path.startsWith(`${name}.`))
      .sort((a, b) => b.length - a.length)[0];
    if (field) (result.byField[field] ??= []).push(error.message);
    else result.general.push(path ? `${path}: ${error.message}` : error.message);
  }
  return result;
}
