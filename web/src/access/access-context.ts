import { createContext } from 'react';
import type { Access } from './access.js';

/**
 * The signed-in caller's rights, read once per sign-in (and account switch) before the shell shows.
 * Outside the shell (sign-in, invitation pages) it is null: nothing there needs a role.
 */
export const AccessContext = createContext<Access | null>(null);
