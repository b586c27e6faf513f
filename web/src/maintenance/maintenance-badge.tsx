import { Link } from '../shared/link.js';
import { describeCheckMaintenance, type CheckMaintenance } from './check-maintenance.js';

/** A check's maintenance as a pill linking to its window: "In maintenance until …" or the next one. */
export function MaintenanceBadge({ maintenance, compact }: { maintenance: CheckMaintenance | null | undefined; compact?: boolean }) {
  if (!maintenance) return null;
  const words = describeCheckMaintenance(maintenance);
  const going = maintenance.state === 'IN_PROGRESS';
  // The list shows only a maintenance going on; its words stay in the title and accessible name.
  if (compact && !going) return null;
  return (
    <Link to={`/maintenance/${encodeURIComponent(maintenance.windowId)}`} className={`pill pill--maintenance${going ? ' pill--maintenance-active' : ''}`}
      data-maintenance={maintenance.state} title={`${words} (${maintenance.windowName})`} aria-label={`${words}: ${maintenance.windowName}`}>
      {compact ? 'maintenance' : `${words} · ${maintenance.windowName}`}
    </Link>
  );
}
