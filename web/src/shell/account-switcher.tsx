import { useId, useState } from 'react';
import { ROLE_NAMES } from '../access/roles.js';
import { useSession } from './session-context.js';

/**
 * Which of the person's accounts the console shows, for people in several: switching moves the
 * session (`PUT /v1/session/account`) and opens the new account's overview with its own data.
 */
export function AccountSwitcher() {
  const { session, switchAccount } = useSession();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const selectId = useId();
  if (!session || session.accounts.length < 2) return null;
  return (
    <div className="account-switcher">
      <label htmlFor={selectId} className="visually-hidden">Account</label>
      <select id={selectId} value={session.accountId} disabled={busy} onChange={async (e) => {
        setBusy(true);
        setProblem(await switchAccount(e.target.value));
        setBusy(false);
      }}>
        {session.accounts.map((account) => <option key={account.id} value={account.id}>{account.name} ({ROLE_NAMES[account.role]})</option>)}
      </select>
      {problem && <p className="form-error" role="alert">{problem}</p>}
    </div>
  );
}
