import { useSnapshot } from 'valtio';
import { useCountriesQuery } from '../../api/hooks';
import type { Country } from '../../../contract/answers';
import { session } from '../../state/session';
import { zoneFor } from './logic/dates';

/** Default device window (spec 1 §9) unless the user's details give another. */
const DEFAULT_WINDOW = { start: '19:00:00', end: '11:00:00' } as const;

/** What patient forms need from the signed-in user: physician id, window, country and the country list. */
export function useClinic() {
  const snap = useSnapshot(session);
  const countries = useCountriesQuery();
  const user = snap.user_details;
  const list: readonly Country[] = countries.data ?? [];
  const find = (name: string | null | undefined) => (name ? list.find((c) => c.name === name || c.code === name) ?? null : null);
  return {
    physicianId: snap.user_id === null ? null : Number(snap.user_id),
    isAnnotator: user?.is_annotator === true,
    isAdmin: user?.is_admin === true,
    windowStart: user?.window_start_time || DEFAULT_WINDOW.start,
    windowEnd: user?.window_end_time || DEFAULT_WINDOW.end,
    countries: list,
    defaultCountry: find(user?.country)?.name ?? '',
    /** Timezone from the country, or the browser's. */
    zoneOf: (country: string | null | undefined) => zoneFor(find(country)),
  };
}
