import { uuidRestId } from './global-id.js';

/** The REST id (lower-case, as REST writes it) of a dashboard from its global id or its REST UUID; null when it can be neither. */
export const dashboardRestId = (id: string): string | null => uuidRestId(id, 'Dashboard')?.toLowerCase() ?? null;
