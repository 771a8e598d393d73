// Loads what the charts need, in the spec's order (nights → channels → data per
// channel): the sources of the visible channels first (in screen order), then SQB, a few
// at a time, fetching while the engine starts.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChannelInfo } from '../../../engine/index';
import { getSignalEngine } from '../../../workers/client';
import { sourcesToLoad, type ChannelChoice } from './channels';
import { NightLoader } from './loader';
import { abortPrefetched, channelVersion } from './api';
import type { NightInfo } from './types';

/** Channels fetched and loaded at the same time: few, so the first charts' channels are not slowed by the rest. */
const PARALLEL_LOADS = 3;

/**
 * The loads of one night on screen. A night switch ends the session: its loads still on
 * their way then touch neither the next night's counter, queue and state (a stale channel
 * would be drawn as the new night's) nor the engine (the loader frees what they loaded).
 */
interface LoadSession {
  loader: NightLoader;
  requested: Set<string>;
  queue: string[];
  active: number;
  ended: boolean;
}

export function useNightChannels(patientId: number, night: NightInfo, choices: readonly ChannelChoice[]) {
  // The channels' versions as the latest night list gives them (a channel loads at the version it is now).
  const latest = useRef(night);
  latest.current = night;
  const loader = useMemo(
    () => new NightLoader(getSignalEngine().then((e) => e.api), patientId, night.recording_id, (code) => channelVersion(latest.current, code)),
    [patientId, night.recording_id],
  );
  const present = useMemo(() => new Set(night.channels.map((c) => c.code)), [night]);
  const wanted = useMemo(() => sourcesToLoad(choices, present), [choices, present]);

  // The first render already says what is loading (the effect below asks for it at once): a
  // state set in the first effects would render the whole night screen a second time before
  // its first chart (one of two renders of the screen's first task).
  const [infos, setInfos] = useState<Record<string, ChannelInfo | null>>({});
  const [loading, setLoading] = useState<ReadonlySet<string>>(() => new Set(wanted));
  const session = useRef<LoadSession | null>(null);
  /** The loader the state above was made for: a night switch starts from empty state, the first night from the state it rendered. */
  const stateOf = useRef(loader);

  useEffect(() => {
    const s: LoadSession = { loader, requested: new Set(), queue: [], active: 0, ended: false };
    session.current = s;
    if (stateOf.current !== loader) {
      stateOf.current = loader;
      setInfos({});
      setLoading(new Set());
    }
    return () => {
      s.ended = true;
      // Leaving the night (or switching) stops its downloads: the prefetched ones and the loader's.
      abortPrefetched(patientId, night.recording_id);
      void loader.close().catch((error: unknown) => console.warn('Closing the night in the signal engine failed', error));
    };
  }, [loader, patientId, night.recording_id]);

  useEffect(() => {
    const s = session.current;
    if (!s || s.loader !== loader || s.ended) return;
    const fresh = wanted.filter((code) => !s.requested.has(code));
    if (fresh.length === 0) return;
    for (const code of fresh) s.requested.add(code);
    s.queue.push(...fresh);
    setLoading((prev) => (fresh.every((code) => prev.has(code)) ? prev : new Set([...prev, ...fresh])));
    const pump = () => {
      while (!s.ended && s.active < PARALLEL_LOADS && s.queue.length > 0) {
        const code = s.queue.shift()!;
        s.active++;
        void loader
          .load(code)
          .then(
            (loaded) => loaded.info,
            (error: unknown) => {
              // Spec 2 §8: a failed recording fetch is logged and yields nothing.
              console.warn(`Channel ${code} could not be loaded`, error);
              return null;
            },
          )
          .then((info) => {
            s.active--;
            if (s.ended) return;
            setInfos((prev) => ({ ...prev, [code]: info }));
            setLoading((prev) => {
              const next = new Set(prev);
              next.delete(code);
              return next;
            });
            pump();
          });
      }
    };
    pump();
  }, [loader, wanted]);

  return { infos, loading, nightRef: loader.night, loader };
}
