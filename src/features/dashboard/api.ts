// Calls of the dashboard and the notification bell (spec 1 §7).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../../api/client';
import type { DeviceNotices, PhysicianNotification } from '../../../contract/dashboard';

export type { DeviceNotices, NightRef, PhysicianNotification } from '../../../contract/dashboard';

const dashboardKeys = {
  widgets: ['dashboard', 'widgets'] as const,
  notifications: ['dashboard', 'notifications'] as const,
  devices: ['dashboard', 'device-notices'] as const,
};

export function useWidgets() {
  return useQuery({ queryKey: dashboardKeys.widgets, queryFn: async () => (await call('GET /physician/widgets')).data });
}

/**
 * The physician's notifications: new nights are turned into notifications first (their
 * analysis is cached for the patient screen too), then the list is read. Paid
 * memberships skip the fetch on load (spec 1 §6); `enabled` says whether to load.
 */
export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.notifications,
    // The header's: after the screen's first paint (decision 1007); generating may analyse new nights first.
    queryFn: async ({ signal }) => {
      await call('POST /physician/generate-notifications', undefined, { signal, background: true });
      return (await call('GET /physician/get-notifications', undefined, { signal, background: true })).data.notifications;
    },
    enabled,
    staleTime: 60_000,
  });
}

export function useDeviceNotices(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.devices,
    queryFn: async ({ signal }) => (await call('GET /physician/deallocation-notifications', undefined, { signal, background: true })).data,
    enabled,
    staleTime: 60_000,
  });
}

/** Marks a notification read, then refetches the list and the widgets (spec 1 §4). */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('POST /physician/update-notification/id=:id', { params: { id } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: dashboardKeys.notifications });
      await client.invalidateQueries({ queryKey: dashboardKeys.widgets });
    },
  });
}

/** Tells the server a night's review screen was opened (it is seen), then refetches the counts (issue 32.4). */
export function useNightSeen() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (night: { patient_id: number; recording_id: number }) => call('POST /physician/night-seen', { body: night }, { background: true }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: dashboardKeys.notifications });
      await client.invalidateQueries({ queryKey: dashboardKeys.widgets });
    },
  });
}

/** The unread count: unread nights plus one for each device notice (spec 1 §4). */
export function unreadCount(notifications: readonly PhysicianNotification[], devices: DeviceNotices | undefined): number {
  return notifications.filter((n) => n.is_read === 0).length + (devices ? devices.deallocations.length + devices.reserved.length : 0);
}

export type { TriageNight, TriagePatient } from '../../../contract/triage';

const triageKey = ['dashboard', 'triage'] as const;

/**
 * The triage table. The table reads stored analyses only; while some of its nights are not
 * analysed yet, the page asks the server to analyse a few more, then reads again, until
 * none remain (the count is shown as progress). A failed step ends in its error.
 */
export function useTriage() {
  const client = useQueryClient();
  const triage = useQuery({ queryKey: triageKey, queryFn: async () => (await call('GET /physician/triage')).data });
  const prepare = useMutation({
    mutationFn: () => call('POST /physician/triage/prepare', { body: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: triageKey }),
  });
  const pending = triage.data?.pending ?? 0;
  const { mutate, isPending, isError } = prepare;
  useEffect(() => {
    if (pending > 0 && !isPending && !isError && !triage.isFetching) mutate();
  }, [pending, isPending, isError, triage.isFetching, mutate]);
  return { triage, prepareError: prepare.error };
}
