import { useId } from 'react';
import { grantableRoles, ROLE_DESCRIPTIONS, ROLE_NAMES, type Role } from './roles.js';

/** A choice of the roles `granter` may hand out (members, invitations, service keys), labelled for people. */
export function RoleSelect({ granter, value, onChange, label, disabled, describe = false }: {
  granter: Role; value: Role; onChange(role: Role): void; label: string; disabled?: boolean; describe?: boolean;
}) {
  const id = useId();
  const roles = grantableRoles(granter);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)} aria-describedby={describe ? `${id}-hint` : undefined}>
        {roles.map((role) => <option key={role} value={role}>{ROLE_NAMES[role]}</option>)}
      </select>
      {describe && <p id={`${id}-hint`} className="hint">{ROLE_NAMES[value]}: {ROLE_DESCRIPTIONS[value]}.</p>}
    </div>
  );
}
