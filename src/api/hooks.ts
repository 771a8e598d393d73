import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { session } from '../state/session';
import { api } from './endpoints';

/** Query keys in one place so invalidation and prefetch agree. */
export const queryKeys = {
  user: ['user'] as const,
  countries: ['countries'] as const,
  patients: ['physician', 'patients'] as const,
};

/** The signed-in user's details, refreshed from the server whenever a token is held. */
export function useUserQuery() {
  const { token } = useSnapshot(session);
  return useQuery({
    queryKey: [...queryKeys.user, token],
    // A refresh of what the session already holds: after the screen's first paint (decision 1007).
    queryFn: async ({ signal }) => (await api.user({ signal, background: true })).data.user_details,
    enabled: Boolean(token),
  });
}

/** Countries for signup and profile; they change rarely, so they are cached for the visit. */
export function useCountriesQuery() {
  return useQuery({
    queryKey: queryKeys.countries,
    queryFn: async () => (await api.countries()).data.countries,
    staleTime: Infinity,
  });
}
