import { useQuery } from '@tanstack/react-query';
import { request, requestFile } from '../../api/client';
import { useEffect, useState } from 'react';

/** GET /user/profile (spec 1 §3 "User profile"). */
export interface Profile {
  user_id: number;
  first_name: string;
  last_name: string;
  email_id: string;
  secondary_emails: string;
  ternary_email: string;
  organisation_name: string;
  country: string;
  primary_phone_number: string;
  secondary_phone_number: string;
  other_phone_number: string;
  date_of_birth: string;
  profile_image: string;
  specialisation_ids: number[];
  window_start_time: string;
  window_end_time: string;
  device_start_window: string;
  device_stop_window: string;
  rii_parameters: string[];
  membership_type: 'paid' | 'non-paid';
  isSecondaryUser: boolean;
  isTernaryUser: boolean;
  gender: string;
  height: number | null;
  weight: number | null;
  bmi: number | null;
}

export interface Specialisation {
  id: number;
  specialisation_name: string;
}

export const profileKeys = {
  profile: ['user', 'profile'] as const,
  specialisations: ['physician', 'specialisations'] as const,
};

export const profileApi = {
  profile: () => request<{ profile: Profile }>('GET', '/user/profile'),
  specialisations: () => request<{ specialisations: Specialisation[] }>('GET', '/physician/specialisations'),
  /** The multipart profile update (spec 1 §7). */
  update: (form: FormData) => request<{ profile: Profile }>('POST', '/update-user-info', form),
};

export function useProfileQuery(enabled = true) {
  return useQuery({ queryKey: profileKeys.profile, queryFn: async () => (await profileApi.profile()).data?.profile ?? null, enabled });
}

export function useSpecialisationsQuery(enabled = true) {
  return useQuery({ queryKey: profileKeys.specialisations, queryFn: async () => (await profileApi.specialisations()).data?.specialisations ?? [], staleTime: Infinity, enabled });
}

/**
 * An avatar as an object URL: GET /get-avatar/{name} needs the session's token, which an
 * <img src> cannot send, so the bytes are fetched and shown from memory.
 */
export function useAvatarUrl(name: string | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!name) return;
    let live = true;
    let made: string | null = null;
    requestFile(`/get-avatar/${encodeURIComponent(name)}`, 'image/*')
      .then((r) => r.blob())
      .then((blob) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => live && setUrl(null));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [name]);
  return url;
}
