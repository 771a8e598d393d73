/**
 * Why a night's AHI/REI (and RII) is "–": the i18n key of its reason, by the analysis's
 * ahi_basis (decisions 0065 and 1033); undefined when the index rests on a breathing signal.
 */
const AHI_BASIS_REASONS = {
  no_breathing_signal: 'nightBasis.noBreathing',
  no_breathing_signal_in_sleep: 'nightBasis.noBreathingInSleep',
} as const;

export function ahiBasisReason(basis: string | null | undefined): (typeof AHI_BASIS_REASONS)[keyof typeof AHI_BASIS_REASONS] | undefined {
  return basis === 'no_breathing_signal' || basis === 'no_breathing_signal_in_sleep' ? AHI_BASIS_REASONS[basis] : undefined;
}
