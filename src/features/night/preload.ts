// The single-night screen's data, asked for before React mounts (issue 14 point 7): on a
// reload of /app/patients/id=N?night=K the page knows from its URL what the screen will ask
// for, so the night list, the patient, the preferences and the first channels' bytes are on
// their way (and the engine's workers starting) while the bundle's modules evaluate, the
// translations load and React renders. The screen's queries then find them in the query
// cache, its loader finds the bytes through `channelBytes`. The charts' WebGL context is not
// made here: making it blocks the main thread (hundreds of ms on a loaded machine with
// SwiftShader), which held back React's first render; the night page makes it after that
// render, while its queries are out.
import type { QueryClient } from '@tanstack/react-query';
import { getSignalEngine } from '../../../workers/client';
import { PATIENT_DETAIL_PATTERN } from '../../routes';
import { fetchWindow } from '../../charts/feeder';
import { chartsFramed } from '../../charts/gl/stats';
import { warmFirstCanvas } from '../../charts/gl/warmCanvas';
import { holdBackgroundRequests } from '../../api/background';
import type { TimeRange } from '../../time/range';
import { readItem, writeItem } from '../../state/storage';
import { annotationListQuery } from '../annotations/queries';
import { nightApi, overviewVersions, prefetchChannels, prefetchOverviews } from './api';
import { overviewCodes, sourcesToLoad, startingChoices } from './channels';
import { nightKeys } from './queries';
import type { NightInfo, PhysicianPreferences } from './types';

/**
 * Longest the header's requests wait for the charts' first frame on a reload of a night
 * (decision 1007): a cold visit's first paint takes 0.3–0.6 s here; a night that draws nothing
 * (no channels, a failed load) holds them this long.
 */
const BACKGROUND_HOLD_MS = 1500;

/** The night to show: the query's night if it has a recording, else the latest (spec 2 §4). */
export function pickNight(nights: readonly NightInfo[], requested: number | null, recording: number | null = null): NightInfo | null {
  if (nights.length === 0) return null;
  const night = nights.find((n) => n.night === requested) ?? nights[nights.length - 1]!;
  // Another recording of that night, when the URL names one (?recording=).
  return (recording !== null && night.others?.find((o) => o.recording_id === recording)) || night;
}

/**
 * Starts the downloads of the night's visible channels (idempotent: a channel asked for
 * already is not asked again), the first charts' first.
 */
export function prefetchNight(patientId: number, night: NightInfo, preferences: PhysicianPreferences | null): void {
  const present = new Set(night.channels.map((c) => c.code));
  const choices = startingChoices(night, preferences);
  // The full-night overviews first: on plots as wide as the last ones, they are what the charts draw first.
  const width = rememberedPlotWidth();
  if (width !== null) {
    const domain = nightDomain(night);
    const w = fetchWindow(domain, domain, width);
    const codes = overviewCodes(choices.filter((c) => c.visible).map((c) => c.code), present);
    const asked: OverviewRequest = { patientId, night: night.night, recordingId: night.recording_id, codes, versions: overviewVersions(night, codes), t0: w.t0, t1: w.t1, pixels: w.pixels };
    prefetchOverviews(asked.patientId, asked.recordingId, asked.codes, asked.versions ?? null, asked.t0, asked.t1, asked.pixels);
    rememberOverviewRequest(asked);
  }
  prefetchChannels(patientId, night, sourcesToLoad(choices, present));
}

/** The span the single-night screen shows of a night (at least a second). */
export function nightDomain(night: NightInfo): TimeRange {
  return { t0: night.recording_start_time, t1: Math.max(night.recording_stop_time, night.recording_start_time + 1000) };
}

/** A full-night overview request of one night, remembered so a reload can send it before it knows the night list. */
interface OverviewRequest {
  patientId: number;
  night: number;
  recordingId: number;
  codes: readonly string[];
  /** The channels' versions when it was asked (absent in a request remembered before decision 1019; null: a live night). */
  versions?: readonly string[] | null;
  t0: number;
  t1: number;
  pixels: number;
}

/** Where the last nights' overview requests are kept (ids, times and channel codes: nothing that names a patient); dropped at logout. */
const OVERVIEW_REQUESTS_KEY = 'nocturne.overviewRequests';
/** Nights remembered, the latest first. */
const OVERVIEW_REQUESTS_KEPT = 20;

function rememberedOverviewRequests(): OverviewRequest[] {
  try {
    const list: unknown = JSON.parse(readItem('localStorage', OVERVIEW_REQUESTS_KEY) ?? '[]');
    return Array.isArray(list) ? (list as OverviewRequest[]) : [];
  } catch {
    // A corrupt entry is as good as none: the night list tells the screen what to ask.
    return [];
  }
}

function rememberOverviewRequest(asked: OverviewRequest): void {
  const kept = rememberedOverviewRequests().filter((r) => !(r.patientId === asked.patientId && r.night === asked.night));
  writeItem('localStorage', OVERVIEW_REQUESTS_KEY, JSON.stringify([asked, ...kept].slice(0, OVERVIEW_REQUESTS_KEPT)));
}

/** Forgets the remembered overview requests (logout). */
export function forgetOverviewRequests(): void {
  writeItem('localStorage', OVERVIEW_REQUESTS_KEY, null);
}

/** Where the width of the last full-night overview's plots is kept, in this browser. */
const PLOT_WIDTH_KEY = 'nocturne.plotWidth';

/** Remembers the plots' width a full-night overview was asked for, for the next visit's prefetch. */
export function rememberPlotWidth(width: number): void {
  if (width >= 1 && rememberedPlotWidth() !== width) writeItem('localStorage', PLOT_WIDTH_KEY, String(width));
}

function rememberedPlotWidth(): number | null {
  const w = Number(readItem('localStorage', PLOT_WIDTH_KEY));
  return Number.isInteger(w) && w >= 1 ? w : null;
}

/** What a URL opens on the single-night screen: the patient and the requested night, or null (another screen or tab). */
export function nightScreenOf(pathname: string, search: string): { patientId: number; night: number | null; overview: boolean } | null {
  const m = PATIENT_DETAIL_PATTERN.exec(pathname);
  if (!m?.groups) return null;
  const q = new URLSearchParams(search);
  const tab = q.get('tab');
  return {
    patientId: Number(m.groups.id),
    night: q.has('night') ? Number(q.get('night')) : null,
    overview: q.get('view') !== 'trend' && (tab === null || tab === 'overview'),
  };
}

/**
 * Called once before React mounts, with a session token only (without one the guard sends
 * the page to sign-in and nothing is asked). A failure here is silent: the screen's own
 * queries ask again and report it. Resolves once the screen's queries have answered (at
 * once for another screen), so the first render can wait a moment for them.
 */
export function preloadNightScreen(client: QueryClient, pathname: string, search: string): Promise<void> {
  const screen = nightScreenOf(pathname, search);
  if (!screen || !(screen.patientId > 0)) return Promise.resolve();
  const { patientId } = screen;
  // A night opened before: its overviews are asked for now, before the night list answers
  // (the list then confirms the recording; the same request is not sent twice). Without a
  // night in the URL the screen shows the latest: the latest night remembered is the guess
  // (a newer one not opened yet makes it a wasted request, and the list's answer is used).
  if (screen.overview) {
    const remembered = rememberedOverviewRequests().filter((r) => r.patientId === patientId);
    const asked = screen.night !== null ? remembered.find((r) => r.night === screen.night) : remembered.reduce<OverviewRequest | undefined>((latest, r) => (!latest || r.night > latest.night ? r : latest), undefined);
    if (asked) prefetchOverviews(asked.patientId, asked.recordingId, asked.codes, asked.versions ?? null, asked.t0, asked.t1, asked.pixels);
  }
  // The night list and preferences first: on the embedded database requests are served one at a time.
  const nights = client.fetchQuery({ queryKey: nightKeys.nights(patientId), queryFn: () => nightApi.nights(patientId) });
  const preferences = client.fetchQuery({ queryKey: nightKeys.preferences, queryFn: () => nightApi.preferences() });
  const details = client.prefetchQuery({ queryKey: nightKeys.details(patientId), queryFn: () => nightApi.details(patientId) });
  const settled = Promise.allSettled([nights, preferences, details]).then(() => undefined);
  if (!screen.overview) return settled;
  // The header's requests wait for the charts' first frame (decision 1007).
  holdBackgroundRequests(chartsFramed(BACKGROUND_HOLD_MS));
  void getSignalEngine().catch(() => undefined);
  // The charts' canvas and its memory while the night list is on its way (decision 1029).
  setTimeout(warmFirstCanvas, 0);
  Promise.all([nights, preferences]).then(
    ([list, prefs]) => {
      const night = pickNight(list, screen.night);
      if (!night) return;
      prefetchNight(patientId, night, prefs);
      // The annotation list after the first charts' data (one request of columns, decision
      // 0994): a night of 10,000 took seconds when asked for only once the screen had rendered.
      void client.prefetchQuery(annotationListQuery({ patientId, night: night.night, recordingId: night.recording_id }));
    },
    () => undefined,
  );
  return settled;
}
