import { useId, useState, type FormEvent } from 'react';
import { RoleSelect } from '../access/role-select.js';
import type { Role } from '../access/roles.js';
import { refusalText } from '../shared/refusal-text.js';
import { useRest } from '../shell/rest-context.js';

/** What inviting answers (`POST /v1/accounts/me/invitations`): the link, and whether the server emailed it. */
interface Invited {
  email: string;
  link: string;
  emailed: boolean;
}

/**
 * Invites someone by email with a role up to the inviter's own (owners only by owners). The link is
 * shown too: a server without email leaves it to the inviter to hand over.
 */
export function InviteMemberForm({ granter, onInvited }: { granter: Role; onInvited(): void }) {
  const rest = useRest();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('READ_ONLY');
  const [error, setError] = useState<string | null>(null);
  const [invited, setInvited] = useState<Invited | null>(null);
  const [busy, setBusy] = useState(false);
  const emailId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\S+@\S+$/.test(email.trim())) return setError('Enter the email address of the person to invite.');
    setBusy(true);
    const answer = await rest<Partial<Invited>>('POST', '/v1/accounts/me/invitations', { email: email.trim(), role });
    setBusy(false);
    if (!answer.ok) return setError(refusalText(answer, `Could not invite ${email.trim()}`));
    setError(null);
    setInvited({ email: email.trim(), link: String(answer.body?.link ?? ''), emailed: Boolean(answer.body?.emailed) });
    setEmail('');
    return onInvited();
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      {invited && (
        <div role="status" className="secret-box" data-invitation-link>
          <span>{invited.emailed ? `Invitation emailed to ${invited.email}.` : `This server sends no email: hand ${invited.email} this link.`} It works once, until it expires.</span>
          {invited.link && <code className="mono">{invited.link}</code>}
          {invited.link && <span><button type="button" className="button button--small" onClick={() => void navigator.clipboard?.writeText(invited.link)}>Copy link</button></span>}
        </div>
      )}
      <div className="field-row">
        <div className="field field--grow">
          <label htmlFor={emailId}>Email</label>
          <input id={emailId} type="email" value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={error ? true : undefined} />
        </div>
        <RoleSelect granter={granter} value={role} onChange={setRole} label="Role" describe />
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>Send invitation</button></div>
    </form>
  );
}
