/** Shortest password the server accepts (src/domain/password-issues.ts), said before sending. */
export const PASSWORD_MIN = 10;

/** What is wrong with a new password (and its repetition, when the form asks twice), in words; null when nothing. */
export function passwordProblem(password: string, repeat?: string): string | null {
  if (password.length < PASSWORD_MIN) return `Choose a password of at least ${PASSWORD_MIN} characters.`;
  if (password.length > 200) return 'Choose a password of at most 200 characters.';
  if (!/\S/.test(password)) return 'A password of only spaces is not accepted.';
  if (repeat !== undefined && password !== repeat) return 'The two passwords differ: type the same one twice.';
  return null;
}
