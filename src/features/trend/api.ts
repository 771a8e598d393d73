// Calls of the trend view (spec 2 §7): per-night points and the saved channel order.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrendAnswerPoint, TrendNoBasisPoint } from '../../../contract/trends';
import { call } from '../../api/client';
import { nightKeys } from '../night/queries';
import type { PhysicianPreferences } from '../night/types';
import { callTimes, isNoBasis, type DateSpan, type NoBasisDay, type TrendPoint } from './model';

const trendApi = {
  points: async (patientId: number, codes: readonly string[], span: DateSpan, zone: string, signal?: AbortSignal) => {
    const { start, stop } = callTimes(span, zone);
    const query = { patient_id: patientId, device_start_time: start, device_stop_time: stop };
    const { data } = await call('GET /analytics/patient-trendview/type=:type', { params: { type: codes.join(',') }, query }, { signal });
    // The call pads the range by a day; keep the nights of the span. A night whose index has no
    // basis (value null, ahi_basis) is no point: its date is listed apart, shown as "–" with the reason.
    const inSpan = (p: { date: string }) => p.date >= span.from && p.date <= span.to;
    const points: Record<string, TrendPoint[]> = {};
    const noBasis: Record<string, NoBasisDay[]> = {};
    for (const [code, list] of Object.entries(data)) {
      points[code] = list.filter((p): p is Exclude<TrendAnswerPoint, TrendNoBasisPoint> => inSpan(p) && !isNoBasis(p));
      noBasis[code] = list.filter((p): p is TrendNoBasisPoint => inSpan(p) && isNoBasis(p)).map((p) => ({ date: p.date, basis: p.ahi_basis }));
    }
    return { points, noBasis };
  },
  saveOrder: (order: Record<string, boolean>) => call('POST /patient/update-trendview-kpi-preference', { body: { new_sorted_array_trendview_kpis: order } }),
};

/** The points of every offered channel over a span (one call; cached per span). */
export function useTrendPoints(patientId: number, codes: readonly string[], span: DateSpan | null, zone: string) {
  return useQuery({
    queryKey: ['patient', patientId, 'trend', span?.from, span?.to, codes.join(',')],
    queryFn: ({ signal }) => trendApi.points(patientId, codes, span!, zone, signal),
    enabled: span !== null && codes.length > 0,
  });
}

/** Saves the trend channel order and visibility; the cached preference follows. */
export function useSaveTrendOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (order: Record<string, boolean>) => trendApi.saveOrder(order),
    onSuccess: (_res, order) => {
      client.setQueryData(nightKeys.preferences, (old: PhysicianPreferences | null | undefined) =>
        old ? { ...old, trendview_kpi_order_preference: order } : old);
    },
  });
}
