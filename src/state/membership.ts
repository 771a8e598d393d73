/**
 * What a membership includes (spec 1 §6, spec 2 §1): every membership check in the UI reads
 * from here. The spec's paid membership leaves out the automated scoring items, which a
 * non-paid one has; everything not listed is the same for both.
 */
export type Membership = 'paid' | 'non-paid';

export const MEMBERSHIP_FEATURES = {
  /** The ODI channel in the single-night and trend views. */
  odiChannel: { paid: false, 'non-paid': true },
  /** The Actions block's "generate system annotations" (apneas and hypopneas). */
  generateSystemAnnotations: { paid: false, 'non-paid': true },
  /** The Actions block's "generate desaturation events". */
  generateDesaturations: { paid: false, 'non-paid': true },
  /** AHI and ODI automated items in the summary, trends and the dashboard's triage. */
  automatedIndices: { paid: false, 'non-paid': true },
  /** Night notifications fetched as the app loads (a paid membership loads them on opening the panel). */
  notificationsOnLoad: { paid: false, 'non-paid': true },
} as const satisfies Record<string, Record<Membership, boolean>>;

export type MembershipFeature = keyof typeof MEMBERSHIP_FEATURES;

/** Whether `membership` includes `feature`. */
export function membershipIncludes(membership: Membership, feature: MembershipFeature): boolean {
  return MEMBERSHIP_FEATURES[feature][membership];
}
