import { createContext, useContext } from 'react';
import type { ConsoleSession } from './console-session.js';

/** What the shell can do with the person's session: switch account, sign out (everywhere). */
export interface SessionControls {
  /** The person's session; null when signed in with an API key. */
  session: ConsoleSession | null;
  switchAccount(accountId: string): Promise<string | null>;
  signOut(): void;
  /** Ends every session of the person, this one too. */
  signOutEverywhere(): Promise<string | null>;
}

export const SessionContext = createContext<SessionControls>({
  session: null,
  switchAccount: async () => null,
  signOut: () => {},
  signOutEverywhere: async () => null,
});

/** The person's session and what the shell can do with it (account switcher, security page). */
export function useSession(): SessionControls {
  return useContext(SessionContext);
}
