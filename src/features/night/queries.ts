import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { nightApi } from './api';

/** Query keys of the patient-detail screen. */
export const nightKeys = {
  details: (id: number) => ['patient', id, 'details'] as const,
  nights: (id: number) => ['patient', id, 'nights'] as const,
  preferences: ['physician', 'preferences'] as const,
};

export function usePatientDetails(id: number) {
  return useQuery({ queryKey: nightKeys.details(id), queryFn: () => nightApi.details(id), enabled: id > 0 });
}

export function useNights(id: number) {
  return useQuery({ queryKey: nightKeys.nights(id), queryFn: () => nightApi.nights(id), enabled: id > 0 });
}

export function usePreferences() {
  return useQuery({ queryKey: nightKeys.preferences, queryFn: () => nightApi.preferences() });
}

/** Saves the channel order and visibility for the physician; the cached preference follows. */
export function useSaveOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (order: Record<string, boolean>) => nightApi.saveOrder(order),
    onSuccess: (_res, order) => {
      client.setQueryData(nightKeys.preferences, (old: Awaited<ReturnType<typeof nightApi.preferences>>) =>
        old ? { ...old, kpi_order_preference: order } : old);
    },
  });
}
