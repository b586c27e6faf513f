import type { RestAnswer } from './rest-answer.js';

/** Words for the refusals any console request can meet, by their code. */
const WORDS: Record<string, string> = {
  NETWORK: 'The Lookout server could not be reached. Check that it is running and try again.',
  ROLE_FORBIDS: 'Your role in this account does not allow this. Ask an admin of the account if you need it.',
  CSRF: 'The console could not prove this request came from it. Reload the page and try again.',
  SESSION_ENDED: 'Your session has ended. Sign in again.',
  NO_ACCOUNT: 'You belong to no account yet: ask an admin for an invitation.',
  INVALID_CREDENTIALS: 'That email and password do not match. Check both and try again.',
  TOTP_INVALID: 'That code was not accepted. Codes change every 30 seconds: enter the one your authenticator app shows now.',
  TOTP_REQUIRED: 'Enter the 6-digit code of your authenticator app.',
  WRONG_PASSWORD: 'Your current password is not right. Check it and try again.',
  INVITATION_EXPIRED: 'This invitation has expired. Ask the person who invited you for a new one.',
  INVITATION_NOT_FOUND: 'This invitation is not known, or was revoked or already used. Ask for a new one.',
  RESET_EXPIRED: 'This password reset link has expired or was already used. Ask for a new one.',
  LAST_OWNER: 'An account keeps at least one owner: make someone else owner first.',
  ALREADY_MEMBER: 'That person is already a member of this account.',
};

/** Words for statuses a refusal of no known code still tells. */
const STATUS_WORDS: Record<number, string> = {
  401: 'You are not signed in any more. Sign in again.',
  403: 'You are not allowed to do this in this account.',
  404: 'Not found: it may have been removed meanwhile, or this server does not offer it yet.',
  429: 'Too many attempts in a short time. Wait a minute and try again.',
};

/**
 * A refused request in words for people: a known code's sentence, else the server's own message,
 * else what the status says. `doing` names the attempt ("Could not remove Ada: …").
 */
export function refusalText(answer: Pick<RestAnswer, 'status' | 'code' | 'message'>, doing?: string): string {
  const words = (answer.code && WORDS[answer.code]) || (answer.status === 429 ? STATUS_WORDS[429] : null) || answer.message || STATUS_WORDS[answer.status] || `The server refused (HTTP ${answer.status}).`;
  return doing ? `${doing}: ${words}` : words;
}
