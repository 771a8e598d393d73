/** Schemas of the physician's preferences: the single-night and trend channel orders, the analytics settings they are read with. */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from './common';

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

/** A saved channel order as answered: channel code → shown, in the order saved. */
export const ChannelOrder = Type.Record(Type.String(), Type.Boolean());
export type ChannelOrder = Static<typeof ChannelOrder>;

/** GET /physician/preferences: the practice's channel orders (null: never saved) and analytics settings, and the caller's membership. */
export const PhysicianPreferences = Type.Object({
  kpi_order_preference: Nullable(ChannelOrder),
  trendview_kpi_order_preference: Nullable(ChannelOrder),
  desaturation_rule: Enum([3, 4]),
  rii_divisor: Enum(['GSD', 'TST', 'TBT', 'TBR']),
  membership_type: Enum(['paid', 'non-paid']),
  is_annotator: Type.Boolean(),
});
export type PhysicianPreferences = Static<typeof PhysicianPreferences>;

/** POST /patient/update-kpi-preferences: the order saved. */
export const KpiOrderAnswer = Type.Object({ kpi_order_preference: ChannelOrder });

/** POST /patient/update-trendview-kpi-preference: the order saved. */
export const TrendKpiOrderAnswer = Type.Object({ trendview_kpi_order_preference: ChannelOrder });
