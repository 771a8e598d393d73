// Loads what the charts need, in the spec's order (nights → channels → data per
// channel): the sources of the visible channels first (in screen order), then SQB, a few
// at a time, fetching while the engine starts.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChannelInfo } from '../../../engine/index';
import { getSignalEngine } from '../../../workers/client';
import { sourcesToLoad, type ChannelChoice } from './channels';
import { NightLoader } from './loader';
import type { NightInfo } from './types';

/** Channels fetched and loaded at the same time: few, so the first charts' channels are not slowed by the rest. */
const PARALLEL_LOADS = 3;

export function useNightChannels(patientId: number, night: NightInfo, choices: readonly ChannelChoice[]) {
  const loader = useMemo(() => new NightLoader(getSignalEngine().then((e) => e.api), patientId, night.recording_id), [patientId, night.recording_id]);
  const [infos, setInfos] = useState<Record<string, ChannelInfo | null>>({});
  const [loading, setLoading] = useState<ReadonlySet<string>>(new Set());
  const requested = useRef(new Set<string>());
  const queue = useRef<string[]>([]);
  const active = useRef(0);

  useEffect(() => {
    requested.current = new Set();
    queue.current = [];
    active.current = 0;
    setInfos({});
    setLoading(new Set());
    return () => {
      void loader.close().catch(() => undefined);
    };
  }, [loader]);

  const present = useMemo(() => new Set(night.channels.map((c) => c.code)), [night]);
  const wanted = useMemo(() => sourcesToLoad(choices, present), [choices, present]);

  useEffect(() => {
    const fresh = wanted.filter((code) => !requested.current.has(code));
    if (fresh.length === 0) return;
    for (const code of fresh) requested.current.add(code);
    queue.current.push(...fresh);
    setLoading((prev) => new Set([...prev, ...fresh]));
    const pump = () => {
      while (active.current < PARALLEL_LOADS && queue.current.length > 0) {
        const code = queue.current.shift()!;
        active.current++;
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
            active.current--;
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

  return { infos, loading, nightRef: loader.night };
}
