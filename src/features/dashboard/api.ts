// Calls of the dashboard and the notification bell (spec 1 §7).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../../api/client';
import type { Triage } from '../../../contract/triage';

export interface NightRef {
  patient_id: number;
  patient_code: string;
  night: number;
  recording_id: number;
}

export interface Widgets {
  unseen_recordings: number;
  flagged_patients: number;
  overdue_devices: number;
  deployed_devices: number;
  available_devices: number;
  todays_returns: Array<{ device_id: string; patient_id: number; patient_code: string }>;
  past_night_recordings: NightRef[];
  last_recordings: NightRef[];
  no_recent_data: Array<{ patient_id: number; patient_code: string; last_stop_ms: number | null }>;
}

export interface PhysicianNotification {
  id: number;
  patient_id: number;
  patient_code: string;
  /** Null when the night has no breathing signal (ahi_basis 'no_breathing_signal'): no count. */
  apnea_events: number | null;
  ahi_basis?: 'breathing_signal' | 'no_breathing_signal' | null;
  night: number;
  is_read: number;
}

export interface DeviceNotices {
  deallocations: Array<{ device_id: string; device_deallocation_date: string }>;
  reserved: Array<{ device_id: string; allocated_date: string }>;
}

const dashboardKeys = {
  widgets: ['dashboard', 'widgets'] as const,
  notifications: ['dashboard', 'notifications'] as const,
  devices: ['dashboard', 'device-notices'] as const,
};

export function useWidgets() {
  return useQuery({ queryKey: dashboardKeys.widgets, queryFn: async () => (await request<Widgets>('GET', '/physician/widgets')).data ?? null });
}

/**
 * The physician's notifications: new nights are turned into notifications first (their
 * analysis is cached for the patient screen too), then the list is read. Paid
 * memberships skip the fetch on load (spec 1 §6); `enabled` says whether to load.
 */
export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.notifications,
    queryFn: async () => {
      await request('POST', '/physician/generate-notifications', {});
      return (await request<{ notifications: PhysicianNotification[] }>('GET', '/physician/get-notifications')).data?.notifications ?? [];
    },
    enabled,
    staleTime: 60_000,
  });
}

export function useDeviceNotices(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.devices,
    queryFn: async () => (await request<DeviceNotices>('GET', '/physician/deallocation-notifications')).data ?? { deallocations: [], reserved: [] },
    enabled,
    staleTime: 60_000,
  });
}

/** Marks a notification read, then refetches the list and the widgets (spec 1 §4). */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request('POST', `/physician/update-notification/id=${id}`),
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
    mutationFn: (night: { patient_id: number; recording_id: number }) => request('POST', '/physician/night-seen', night),
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

export type { Triage, TriageNight, TriagePatient } from '../../../contract/triage';

const triageKey = ['dashboard', 'triage'] as const;

/**
 * The triage table. The table reads stored analyses only; while some of its nights are not
 * analysed yet, the page asks the server to analyse a few more, then reads again, until
 * none remain (the count is shown as progress). A failed step ends in its error.
 */
export function useTriage() {
  const client = useQueryClient();
  const triage = useQuery({ queryKey: triageKey, queryFn: async () => (await request<Triage>('GET', '/physician/triage')).data ?? null });
  const prepare = useMutation({
    mutationFn: () => request<{ prepared: number; remaining: number }>('POST', '/physician/triage/prepare', {}),
    onSuccess: () => client.invalidateQueries({ queryKey: triageKey }),
  });
  const pending = triage.data?.pending ?? 0;
  const { mutate, isPending, isError } = prepare;
  useEffect(() => {
    if (pending > 0 && !isPending && !isError && !triage.isFetching) mutate();
  }, [pending, isPending, isError, triage.isFetching, mutate]);
  return { triage, prepareError: prepare.error };
}
