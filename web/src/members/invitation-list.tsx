import { canGrant, ROLE_NAMES, type Role } from '../access/roles.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { refusalText } from '../shared/refusal-text.js';
import { useRest } from '../shell/rest-context.js';
import type { Invitation } from './member.js';

/** Invitations not accepted yet, each revocable (its link stops working at once). */
export function InvitationList({ invitations, viewer, onChanged, onMessage }: {
  invitations: Invitation[]; viewer: Role; onChanged(): void; onMessage(message: string): void;
}) {
  const rest = useRest();
  async function revoke(invitation: Invitation) {
    const answer = await rest('DELETE', `/v1/accounts/me/invitations/${encodeURIComponent(invitation.id)}`);
    onMessage(answer.ok ? `Revoked the invitation of ${invitation.email}: its link no longer works.` : refusalText(answer, `Could not revoke the invitation of ${invitation.email}`));
    onChanged();
  }
  if (invitations.length === 0) return <p className="muted">No invitations are waiting.</p>;
  return (
    <table className="card" aria-label="Pending invitations">
      <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        {invitations.map((invitation) => {
          const expired = invitation.expiresAt !== '' && Date.parse(invitation.expiresAt) < Date.now();
          return (
            <tr key={invitation.id} data-invitation={invitation.email}>
              <td>{invitation.email}</td>
              <td>{ROLE_NAMES[invitation.role]}</td>
              <td>{invitation.expiresAt ? <time dateTime={invitation.expiresAt}>{expired ? 'expired ' : ''}{formatRelativeTime(invitation.expiresAt)}</time> : ''}</td>
              <td>{canGrant(viewer, invitation.role) && <button type="button" className="button button--small" aria-label={`Revoke the invitation of ${invitation.email}`} onClick={() => void revoke(invitation)}>Revoke</button>}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
