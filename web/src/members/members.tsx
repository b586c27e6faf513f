import { useState } from 'react';
import { useAccess } from '../access/use-access.js';
import { useRestList } from '../shared/use-rest-list.js';
import { InvitationList } from './invitation-list.js';
import { InviteMemberForm } from './invite-member-form.js';
import { readInvitations, readMembers } from './member.js';
import { MemberRow } from './member-row.js';

/**
 * The account's people and their roles, for admins and owners: invite with a role, change a role,
 * remove someone, make a password reset link, and revoke invitations not accepted yet.
 */
export function Members() {
  const { access, can } = useAccess();
  const members = useRestList('/v1/accounts/me/members', readMembers);
  const invitations = useRestList('/v1/accounts/me/invitations', readInvitations);
  const [message, setMessage] = useState<string | null>(null);
  if (!access || !can('manage')) {
    return <section><h1>Members</h1><p className="muted">Only admins and owners of the account see its members.</p></section>;
  }
  const changed = () => {
    members.reload();
    invitations.reload();
  };
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      {message && <p role="status" className="muted">{message}</p>}
      {members.error && <p className="form-error" role="alert">{members.error}</p>}
      {members.items && (
        <table className="card" aria-label="Members">
          <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Signs in with</th><th scope="col">Joined</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {members.items.map((member) => (
              <MemberRow key={member.userId} member={member} viewer={access.role} self={member.userId === access.userId} onChanged={changed} onMessage={setMessage} />
            ))}
          </tbody>
        </table>
      )}
      <InviteMemberForm granter={access.role} onInvited={changed} />
      <h2>Pending invitations</h2>
      {invitations.error && <p className="form-error" role="alert">{invitations.error}</p>}
      {invitations.items && <InvitationList invitations={invitations.items} viewer={access.role} onChanged={changed} onMessage={setMessage} />}
    </section>
  );
}
