/**
 * A flagged patient (spec 1 §1 "flagged patients", §2 the list's "flagged" filter): status At
 * Risk (at_risk 1) and still under care (the device not returned, so not in the archive).
 * The dashboard's count, the list's `flagged` field (which the filter reads) and the triage
 * table all use this one predicate over the patients row aliased `alias`.
 */
export const flaggedSql = (alias: string) => `(${alias}.at_risk = 1 and ${alias}.phys_device_return_date is null)`;
