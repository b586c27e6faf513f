/** Where a check or a group says to run. */
export interface Placement {
  locations?: readonly string[] | null;
  privateLocations?: readonly string[] | null;
}

/**
 * Where a check runs (README "Group settings"): its group's locations and private locations when
 * the group names any, else the check's own. Empty lists mean it has nowhere to run.
 */
export function effectiveLocations(check: Placement, group: Placement | null | undefined): { locations: string[]; privateLocations: string[] } {
  const groupNamesAny = !!group && ((group.locations ?? []).length > 0 || (group.privateLocations ?? []).length > 0);
  const from = groupNamesAny ? group : check;
  return { locations: [...(from.locations ?? [])], privateLocations: [...(from.privateLocations ?? [])] };
}
