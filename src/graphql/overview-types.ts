// The parent of AccountOverview (codegen.yml maps it): in its own file, as the generated resolver
// types import it and the resolvers import them.

/** Counts of the overview, each the total of a one-item REST page. */
export interface OverviewCounts {
  totalChecks: number;
  activatedChecks: number;
  passingChecks: number;
  failingChecks: number;
  degradedChecks: number;
  checksWithoutStatus: number;
}
