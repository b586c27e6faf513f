import type { SandboxSettings } from '../../config.js';

/**
 * Why the service must not start with these sandbox settings and this many accounts, or null:
 * `LOOKOUT_SANDBOX=off` lets every account's code read the server (its database URL, keys and every
 * other account's data), so it is for a single-account server unless the operator forces it.
 */
export function sandboxOffRefusal(settings: Pick<SandboxSettings, 'mode' | 'forceOff'>, accounts: number): string | null {
  if (settings.mode !== 'off' || settings.forceOff || accounts <= 1) return null;
  return `LOOKOUT_SANDBOX=off runs every account's check code with the server's own user, environment and files, and that would make ${accounts} accounts: `
    + 'turn the sandbox back on (unset LOOKOUT_SANDBOX), or set LOOKOUT_SANDBOX_FORCE_OFF=true if every account is trusted with the whole server';
}
