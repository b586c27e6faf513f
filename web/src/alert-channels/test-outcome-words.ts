/** What each delivery error code of "Send test" means, in words for people (the server's message follows). */
const WORDS: Record<string, string> = {
  CHANNEL_NOT_CONFIGURED: 'The channel or the server is missing a setting it needs.',
  INVALID_URL: 'The channel\'s URL is not a web address.',
  RECEIVER_REJECTED: 'The receiver refused the message.',
  TIMEOUT: 'The receiver did not answer in time.',
  UNREACHABLE: 'The receiver could not be reached.',
  DELIVERY_FAILED: 'The message could not be delivered.',
};

/** The console's sentence for a "Send test" answer: success, or the code's words then the server's reason. */
export function testOutcomeWords(outcome: { ok: boolean; code?: string | null; message: string }): string {
  if (outcome.ok) return outcome.message;
  return `${(outcome.code && WORDS[outcome.code]) || WORDS.DELIVERY_FAILED} ${outcome.message}`;
}
