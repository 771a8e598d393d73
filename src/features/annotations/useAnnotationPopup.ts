import { useEffect, useState, type RefObject } from 'react';
import { onAnnotationRequest } from '../night/intents';
import type { AnnotationDraft } from './api';
import type { PopupMode } from './AnnotationPopup';
import type { Annotation } from './model';
import type { LastMark } from './useNightKeys';
import type { useUndoableEdits } from './useUndoableEdits';

export type Popup = { mode: PopupMode; annotation?: Annotation; prefill?: { startMs: number; durationS?: number; kpis?: string[]; label?: number } } | null;

/**
 * The annotation popup of the single-night view: which one is open (a chart's Ctrl + drag opens
 * Add with the latest category and channels), and its save as an undoable edit.
 */
export function useAnnotationPopup(undoable: ReturnType<typeof useUndoableEdits>, last: RefObject<LastMark | null>, categoryName: (label: number) => string) {
  const { history, edits, addUndoable } = undoable;
  const [popup, setPopup] = useState<Popup>(null);

  useEffect(
    () =>
      onAnnotationRequest((r) => {
        setPopup({ mode: 'add', prefill: { startMs: r.startMs, durationS: Math.max(1, Math.round((r.endMs - r.startMs) / 1000)), kpis: r.channel ? [r.channel] : last.current?.kpis, label: last.current?.label } });
      }),
    [],
  );

  const save = async (draft: AnnotationDraft) => {
    if (popup?.annotation) history.push(await edits.edit(popup.annotation, draft, categoryName(draft.label)));
    else await addUndoable(draft, categoryName(draft.label));
    last.current = { label: draft.label, color: draft.color_code, kpis: draft.kpi };
  };
  return { popup, setPopup, save };
}
