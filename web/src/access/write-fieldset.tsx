import type { ReactNode } from 'react';
import type { Permission } from './roles.js';
import { useAccess } from './use-access.js';

/**
 * Wraps a settings form that is also where a resource's settings are read (a group's, a status
 * page's, a maintenance window's): for a role that may not change them, its fields are disabled and
 * its buttons hidden, so the settings stay readable without a control that would be refused.
 */
export function WriteFieldset({ permission = 'write', children }: { permission?: Permission; children: ReactNode }) {
  const { can } = useAccess();
  const allowed = can(permission);
  return <fieldset className="write-fieldset" disabled={!allowed} data-read-only={allowed ? undefined : true}>{children}</fieldset>;
}
