import { useCallback, useMemo, useState } from 'react';
import type { ChannelInfo } from '../../../engine/index';
import { arrivedOverviews, channelOverviews } from '../night/api';
import type { NightLoader } from '../night/loader';
import { OverviewSource } from '../night/overviews';
import type { NightInfo } from '../night/types';
import type { SignalApi } from '../../../workers/protocol';

interface Preview {
  api: SignalApi;
  loader: NightLoader;
  patientId: number;
  night: NightInfo;
  nightRef: string;
  /** What the engine has loaded: these channels are drawn from their samples, not their overview. */
  loadedInfos: Record<string, ChannelInfo | null>;
}

/**
 * Charts drawn from the server's overview until their samples are in the engine (issue 14 point 7):
 * the overview source, `onPreview` to take the overviews that arrive, and the channel infos merged
 * (loaded first), with the codes still `provisional` (shown from an overview).
 */
export function useOverviewPreview({ api, loader, patientId, night, nightRef, loadedInfos }: Preview) {
  const source = useMemo(
    () =>
      new OverviewSource({
        engine: api,
        loaded: (code) => loader.isLoaded(code),
        whenLoaded: (code) => loader.whenLoaded(code),
        fetch: (codes, t0, t1, pixels) => channelOverviews(patientId, night, codes, t0, t1, pixels, loader.signal),
      }),
    // The night's versions are those of this screen's life: NightPage keys it by them (nightReviewKey).
    [api, loader, patientId, night.recording_id],
  );
  // Overviews a reload's prefetch already has are taken at once: the first render lays out the charts they draw.
  const [previewed, setPreviewed] = useState<{ source: OverviewSource; infos: Record<string, ChannelInfo> }>(() => {
    const early = arrivedOverviews(patientId, night.recording_id, night);
    return { source, infos: early ? source.seed(nightRef, early.codes, early.window, early.views) : {} };
  });
  const onPreview = useCallback(
    (more: Record<string, ChannelInfo>) => setPreviewed((p) => ({ source, infos: { ...(p.source === source ? p.infos : {}), ...more } })),
    [source],
  );
  const { infos, provisional } = useMemo(() => {
    const merged: Record<string, ChannelInfo | null> = { ...loadedInfos };
    const shownFromOverview = new Set<string>();
    if (previewed.source === source) {
      for (const [code, info] of Object.entries(previewed.infos)) {
        if (code in loadedInfos) continue;
        merged[code] = info;
        shownFromOverview.add(code);
      }
    }
    return { infos: merged, provisional: shownFromOverview };
  }, [loadedInfos, previewed, source]);
  return { source, onPreview, infos, provisional };
}
