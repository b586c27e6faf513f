import { useId, useState } from 'react';
import { canGrant, grantableRoles, ROLE_NAMES, type Role } from '../access/roles.js';
import { formatRelativeTime } from '../shared/relative-time.js';
import { refusalText } from '../shared/refusal-text.js';
import { useRest } from '../shell/rest-context.js';
import type { Member } from './member.js';

/** A reset link an admin made for a member, to hand over when the server sends no email. */
interface ResetLink {
  link: string;
  expiresAt: string;
}

/**
 * One member: their role (a picker when the viewer may change it), second factor and single
 * sign-on, and the admin's actions: a password reset link, and removing them after a confirmation.
 * Nobody changes or removes themselves here (that would lock them out mid-click).
 */
export function MemberRow({ member, viewer, self, onChanged, onMessage }: {
  member: Member; viewer: Role; self: boolean; onChanged(): void; onMessage(message: string): void;
}) {
  const rest = useRest();
  const [confirming, setConfirming] = useState(false);
  const [reset, setReset] = useState<ResetLink | null>(null);
  const roleId = useId();
  const path = `/v1/accounts/me/members/${encodeURIComponent(member.userId)}`;
  const who = member.name || member.email;
  const mayChange = !self && canGrant(viewer, member.role);

  async function changeRole(role: Role) {
    const answer = await rest('PUT', path, { role });
    onMessage(answer.ok ? `${who} is now ${ROLE_NAMES[role]}.` : refusalText(answer, `Could not change ${who}'s role`));
    onChanged();
  }

  async function remove() {
    setConfirming(false);
    const answer = await rest('DELETE', path);
    onMessage(answer.ok ? `Removed ${who}: they no longer reach this account.` : refusalText(answer, `Could not remove ${who}`));
    onChanged();
  }

  async function makeResetLink() {
    const answer = await rest<Partial<ResetLink>>('POST', `${path}/password-reset`);
    if (!answer.ok) return onMessage(refusalText(answer, `Could not make a reset link for ${who}`));
    return setReset({ link: String(answer.body?.link ?? ''), expiresAt: String(answer.body?.expiresAt ?? '') });
  }

  return (
    <tr data-member={member.email}>
      <td>{member.name}{self && <span className="pill">you</span>}</td>
      <td>{member.email}</td>
      <td>
        {mayChange ? (
          <>
            <label htmlFor={roleId} className="visually-hidden">Role of {who}</label>
            <select id={roleId} value={member.role} onChange={(e) => void changeRole(e.target.value as Role)}>
              {grantableRoles(viewer).map((role) => <option key={role} value={role}>{ROLE_NAMES[role]}</option>)}
            </select>
          </>
        ) : ROLE_NAMES[member.role]}
      </td>
      <td>{member.ssoEnabled ? 'Single sign-on' : member.mfaEnabled ? 'Password and code' : 'Password only'}</td>
      <td>{member.createdAt ? <time dateTime={member.createdAt}>{formatRelativeTime(member.createdAt)}</time> : ''}</td>
      <td>
        {reset && (
          <div className="secret-box" role="status" data-reset-link>
            <span>Hand {who} this link{reset.expiresAt ? ` before it expires ${formatRelativeTime(reset.expiresAt)}` : ''}:</span>
            <code className="mono">{reset.link}</code>
          </div>
        )}
        {mayChange && !reset && <button type="button" className="button button--small" aria-label={`Password reset link for ${who}`} onClick={() => void makeResetLink()}>Reset link</button>}
        {mayChange && (confirming ? (
          <>
            <button type="button" className="button button--small button--danger" onClick={() => void remove()}>Remove {who} now</button>
            <button type="button" className="button button--small" onClick={() => setConfirming(false)}>Keep</button>
          </>
        ) : <button type="button" className="button button--small" aria-label={`Remove ${who}`} onClick={() => setConfirming(true)}>Remove</button>)}
      </td>
    </tr>
  );
}
