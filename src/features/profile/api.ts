import { useQuery } from '@tanstack/react-query';
import { call, download, type RequestOptions } from '../../api/client';
import { useEffect, useState } from 'react';

/** GET /user/profile (spec 1 §3 "User profile") and a specialisation to choose, as the contract has them. */
export type { Profile } from '../../../contract/profile';

export const profileKeys = {
  profile: ['user', 'profile'] as const,
  specialisations: ['physician', 'specialisations'] as const,
};

export const profileApi = {
  profile: (options?: RequestOptions) => call('GET /user/profile', undefined, options),
  specialisations: () => call('GET /physician/specialisations'),
  /** The multipart profile update (spec 1 §7). */
  update: (form: FormData) => call('POST /update-user-info', { form }),
};

export function useProfileQuery(enabled = true) {
  return useQuery({ queryKey: profileKeys.profile, queryFn: async ({ signal }) => (await profileApi.profile({ signal, background: true })).data.profile, enabled });
}

export function useSpecialisationsQuery(enabled = true) {
  return useQuery({ queryKey: profileKeys.specialisations, queryFn: async () => (await profileApi.specialisations()).data.specialisations, staleTime: Infinity, enabled });
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
    download('GET /get-avatar/:name', 'image/*', { params: { name } })
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
