import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../api/errors';
import { incrementalFilter } from './incremental';
import { displayable, isVisible, type Annotation, type Visibility } from './model';
import type { useAnnotationMutations } from './queries';
import { incrementalTally } from './tally';

const NONE: readonly Annotation[] = [];

/**
 * The night's annotations that can be shown (on the night's channels or its summary codes), their
 * tally, and those the sidebar's show toggles leave visible (handed to `onVisible`, the renderer's
 * bands). Each is brought up to date for what a write changed, not derived again from the whole
 * night (issue 36 point 1).
 */
export function useShownAnnotations(annotations: readonly Annotation[] | undefined, channels: readonly string[], onVisible?: (annotations: readonly Annotation[]) => void) {
  const [visibility, setVisibility] = useState<Visibility>({ system: true, custom: true, desaturation: true, device: true });
  const codes = channels.join(',');
  const toShow = useMemo(() => {
    const known = new Set([...codes.split(','), 'AP_timing', 'DSAT', 'AHI', 'SQB', 'ODI']);
    return incrementalFilter((a: Annotation) => displayable(a, known));
  }, [codes]);
  const shown = useMemo(() => toShow(annotations ?? NONE), [toShow, annotations]);
  const count = useMemo(() => incrementalTally(), []);
  const tally = useMemo(() => count(shown), [count, shown]);
  const everyKind = visibility.system && visibility.custom && visibility.desaturation && visibility.device;
  const toSee = useMemo(() => (everyKind ? null : incrementalFilter((a: Annotation) => isVisible(a, visibility))), [everyKind, visibility]);
  const visible = useMemo(() => (toSee ? toSee(shown) : shown), [toSee, shown]);
  useEffect(() => {
    onVisible?.(visible);
  }, [visible, onVisible]);
  return { shown, tally, visible, visibility, setVisibility };
}

/**
 * A notice for the night's next sidebar: an import that changed the night's files (a scoring file
 * that staged it, decision 1051) makes the night screen anew (NightPage keys it on the night's
 * channels), and the answer is said in the new one's sidebar. By recording.
 */
const carried = new Map<number, string>();
export const carryNotice = (recordingId: number, text: string) => void carried.set(recordingId, text);

/** The sidebar's notice (one carried from the night's screen before, else none), and generating system or desaturation annotations, whose answer it shows. */
export function useGenerate(m: ReturnType<typeof useAnnotationMutations>, recordingId: number) {
  const [notice, setNotice] = useState<string | null>(() => carried.get(recordingId) ?? null);
  useEffect(() => void carried.delete(recordingId), [recordingId]);
  const generate = (type: 'system' | 'desaturation') => {
    setNotice(null);
    m.generate.mutate(type, {
      onSuccess: (r) => setNotice(r.message),
      onError: (err) => setNotice(err instanceof ApiError ? err.message : String(err)),
    });
  };
  return { notice, setNotice, generate };
}
