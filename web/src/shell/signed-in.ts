import type { Credentials } from './credentials.js';
import type { ConsoleSession } from './console-session.js';

/** What a sign-in hands the app: a person's session (cookie) or an API key to keep in local storage. */
export type SignedIn = { kind: 'session'; session: ConsoleSession } | { kind: 'key'; credentials: Credentials };
