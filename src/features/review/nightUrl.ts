import { useLocation, useSearch } from 'wouter';
import { TABS, type Tab } from '../night/SideTabs';

/**
 * The patient screen's query: the night and recording asked for, trend or single-night view, the
 * side tab (Summary has no trend view), and `goTo` the same screen with some values changed
 * (null drops one), replacing the history entry.
 */
export function useNightUrl(patientId: number) {
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const requested = search.has('night') ? Number(search.get('night')) : null;
  const requestedRecording = search.has('recording') ? Number(search.get('recording')) : null;
  const trend = search.get('view') === 'trend';
  const requestedTab = search.get('tab') as Tab | null;
  const tab: Tab = requestedTab && (TABS as readonly string[]).includes(requestedTab) && !(trend && requestedTab === 'summary') ? requestedTab : 'overview';
  /** The screen's URL with these query values (null drops one). */
  const urlWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    const q = next.toString();
    return `/app/patients/id=${patientId}${q ? `?${q}` : ''}`;
  };
  const goTo = (changes: Record<string, string | null>) => navigate(urlWith(changes), { replace: true });
  return { requested, requestedRecording, trend, tab, goTo };
}
