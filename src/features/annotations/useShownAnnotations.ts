import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../api/errors';
import { displayable, isVisible, type Annotation, type Visibility } from './model';
import type { useAnnotationMutations } from './queries';

/**
 * The night's annotations that can be shown (on the night's channels or its summary codes), and
 * those the sidebar's filter leaves visible handed to `onVisible` (the renderer's bands).
 */
export function useShownAnnotations(annotations: Annotation[] | undefined, channels: string[], onVisible?: (annotations: Annotation[]) => void) {
  const [visibility, setVisibility] = useState<Visibility>({ system: true, custom: true, desaturation: true, device: true });
  const known = useMemo(() => new Set([...channels, 'AP_timing', 'DSAT', 'AHI', 'SQB', 'ODI']), [channels]);
  const shown = useMemo(() => (annotations ?? []).filter((a) => displayable(a, known)), [annotations, known]);
  useEffect(() => {
    onVisible?.(shown.filter((a) => isVisible(a, visibility)));
  }, [shown, visibility, onVisible]);
  return { shown, visibility, setVisibility };
}

/** The sidebar's notice, and generating system or desaturation annotations, whose answer it shows. */
export function useGenerate(m: ReturnType<typeof useAnnotationMutations>) {
  const [notice, setNotice] = useState<string | null>(null);
  const generate = (type: 'system' | 'desaturation') => {
    setNotice(null);
    m.generate.mutate(type, {
      onSuccess: (r) => setNotice(r.message),
      onError: (err) => setNotice(err instanceof ApiError ? err.message : String(err)),
    });
  };
  return { notice, setNotice, generate };
}
