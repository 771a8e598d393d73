/** Request schemas of the physician's preferences: the single-night and trend channel orders. */
import { Type, type Static } from '@sinclair/typebox';

/** Channel order and visibility: a JSON map of channel code to shown (insertion order is the order). */
const channelOrder = Type.Unsafe<Record<string, boolean>>({
  type: 'object',
  maxProperties: 64,
  propertyNames: { pattern: '^[A-Za-z0-9_&. -]{1,40}$' },
  additionalProperties: { type: 'boolean' },
});

// A physician_id is accepted and not used: the route saves for the caller's physician, whatever it says.
const physicianId = Type.Optional(Type.Integer());

/** POST /patient/update-kpi-preferences: the single-night screen's channel order. */
export const KpiOrderBody = Type.Object({ new_sorted_array_kpis: channelOrder, physician_id: physicianId });
export type KpiOrderBody = Static<typeof KpiOrderBody>;

/** POST /patient/update-trendview-kpi-preference: the trend view's channel order. */
export const TrendKpiOrderBody = Type.Object({ new_sorted_array_trendview_kpis: channelOrder, physician_id: physicianId });
export type TrendKpiOrderBody = Static<typeof TrendKpiOrderBody>;
