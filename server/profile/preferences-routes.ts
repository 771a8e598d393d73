import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { peopleEndpoints } from '../../contract/endpoints/people';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId } from '../auth/users';
import { loadPreferences, saveChannelOrder, type ChannelOrderField } from './repository';

/** Physician preferences: read them, save the single-night and trend channel orders. */
export function preferenceRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);

  app.get('/physician/preferences', { preHandler: auth, schema: peopleEndpoints['GET /physician/preferences'] }, async (request) => {
    const user = currentUser(request);
    const row = await loadPreferences(ctx.db, actingPhysicianId(user));
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

  /** Saves one channel order for the caller's practice (the route answers it back). */
  const save = async (request: FastifyRequest, field: ChannelOrderField, order: Record<string, boolean>) => {
    const user = currentUser(request);
    // The physician is the caller's (an annotator saves for their physician); a physician_id in the body is not trusted.
    const physicianId = actingPhysicianId(user);
    await saveChannelOrder(ctx.db, physicianId, field, order, user.id);
  };
  const saved = { code: 'preferences_updated', message: 'Preferences saved.' };
  app.post('/patient/update-kpi-preferences', { preHandler: auth, schema: peopleEndpoints['POST /patient/update-kpi-preferences'] }, async (request) => {
    const order = request.body.new_sorted_array_kpis;
    await save(request, 'kpi_order_preference', order);
    return { ...saved, data: { kpi_order_preference: order } };
  });
  app.post('/patient/update-trendview-kpi-preference', { preHandler: auth, schema: peopleEndpoints['POST /patient/update-trendview-kpi-preference'] }, async (request) => {
    const order = request.body.new_sorted_array_trendview_kpis;
    await save(request, 'trendview_kpi_order_preference', order);
    return { ...saved, data: { trendview_kpi_order_preference: order } };
  });
}
