/**
 * Stable codes of what is wrong with one input field, carried by each issue of a REST 400
 * (`validation.issues[].code`) and each GraphQL userError (`reason`), so clients word them themselves.
 */
export const ISSUE_CODES = [
  /** A required field is missing. */
  'REQUIRED',
  /** The value has the wrong JSON type (a string for a number). */
  'WRONG_TYPE',
  /** Text shorter than allowed (an empty name). */
  'TOO_SHORT',
  /** Text longer than allowed. */
  'TOO_LONG',
  /** A number below the least allowed. */
  'TOO_SMALL',
  /** A number above the most allowed. */
  'TOO_LARGE',
  /** Not one of the allowed values. */
  'NOT_ALLOWED',
  /** Text not in the expected form (a URL, a date, a pattern). */
  'BAD_FORMAT',
  /** A list with fewer entries than required. */
  'TOO_FEW_ITEMS',
  /** A list with more entries than allowed. */
  'TOO_MANY_ITEMS',
  /** A list naming one entry twice. */
  'DUPLICATE',
  /** Anything else: a rule between fields, a reference to something that does not exist. */
  'INVALID',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];
