/** A paid add-on tier, as clients of the hosted API expect to read it. */
export interface AddonTier {
  tier: string;
  tierDisplayName: string;
}

/**
 * Add-ons of every Lookout account. A self-hosted installation has no paid tiers, so both add-ons
 * carry the self-hosted tier; clients only display these values.
 */
export const SELF_HOSTED_ADDONS: { communicate: AddonTier; resolve: AddonTier } = {
  communicate: { tier: 'self-hosted', tierDisplayName: 'Self-hosted' },
  resolve: { tier: 'self-hosted', tierDisplayName: 'Self-hosted' },
};
