import type { ReactNode } from 'react';
import type { Permission } from './roles.js';
import { useAccess } from './use-access.js';

/** Renders its children only when the caller's role allows `permission` (write controls, run buttons). */
export function Can({ permission, children, otherwise = null }: { permission: Permission; children: ReactNode; otherwise?: ReactNode }) {
  const { can } = useAccess();
  return <>{can(permission) ? children : otherwise}</>;
}
