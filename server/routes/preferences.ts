import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId } from '../auth/users';

/** Channel order and visibility: a JSON map of channel code to shown (insertion order is the order). */
const orderMap = {
  type: 'object',
  maxProperties: 64,
  propertyNames: { pattern: '^[A-Za-z0-9_&. -]{1,40}$' },
  additionalProperties: { type: 'boolean' },
} as const;

/** Physician preferences: read them, save the single-night and trend channel orders. */
export function preferenceRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = authenticate(ctx);

  app.get('/physician/preferences', { preHandler: auth }, async (request) => {
    const user = currentUser(request);
    const [row] = await ctx.db.query<{ kpi_order_preference: unknown; trendview_kpi_order_preference: unknown; desaturation_rule: number; rii_divisor: string }>(
      'select kpi_order_preference, trendview_kpi_order_preference, desaturation_rule, rii_divisor from physician_preferences where physician_id = $1',
      [actingPhysicianId(user)],
    );
    return {
      data: {
        kpi_order_preference: row?.kpi_order_preference ?? null,
        trendview_kpi_order_preference: row?.trendview_kpi_order_preference ?? null,
        desaturation_rule: row?.desaturation_rule ?? 3,
        rii_divisor: row?.rii_divisor ?? 'TBT',
        membership_type: user.membership_type,
        is_annotator: user.is_annotator,
      },
    };
  });

  const save = (path: string, field: 'kpi_order_preference' | 'trendview_kpi_order_preference', bodyKey: string) =>
    app.post<{ Body: Record<string, unknown> }>(
      path,
      {
        preHandler: auth,
        schema: {
          body: {
            type: 'object',
            required: [bodyKey],
            properties: { [bodyKey]: orderMap, physician_id: { type: 'integer' } },
          },
        },
      },
      async (request) => {
        const user = currentUser(request);
        // The physician is the caller's (an annotator saves for their physician); a physician_id in the body is not trusted.
        const physicianId = actingPhysicianId(user);
        await ctx.db.query(
          `insert into physician_preferences (physician_id, ${field}, updated_by) values ($1, $2, $3)
           on conflict (physician_id) do update set ${field} = excluded.${field}, updated_by = excluded.updated_by, updated_at = now()`,
          [physicianId, JSON.stringify(request.body[bodyKey]), user.id],
        );
        return { code: 'preferences_updated', message: 'Preferences saved.', data: { [field]: request.body[bodyKey] } };
      },
    );
  save('/patient/update-kpi-preferences', 'kpi_order_preference', 'new_sorted_array_kpis');
  save('/patient/update-trendview-kpi-preference', 'trendview_kpi_order_preference', 'new_sorted_array_trendview_kpis');
}
