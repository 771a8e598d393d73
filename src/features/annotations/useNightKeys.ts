import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import type { ViewController } from '../../state/view';
import { chartFocus } from '../night/focus';
import type { Annotation, Category } from './model';
import { annotationChannels, loadBindings, saveBindings, scoredWindow, scoringDraft, type Bindings } from './scoringKeys';
import { useAnnotationKeys } from './useAnnotationKeys';
import { useScoringKeys } from './useScoringKeys';
import type { useUndoableEdits } from './useUndoableEdits';

/** The category, colour and channels of the latest annotation made: what M marks with. */
export type LastMark = { label: number; color: string; kpis: string[] };

interface Options {
  night: { patientId: number; startMs: number };
  /** Channel codes of the night. */
  channels: string[];
  view: ViewController;
  /** Codes of the charts shown, in order: what a scoring key marks when no chart is in focus. */
  shownCharts: readonly string[];
  categories: Category[] | undefined;
  /** The annotations shown, for ] and [. */
  annotations: readonly Annotation[];
  enabled: boolean;
  last: RefObject<LastMark | null>;
  undoable: ReturnType<typeof useUndoableEdits>;
  categoryName(label: number): string;
  /** Opens the popup to add an annotation over the span (M with no latest annotation to copy). */
  open(startMs: number, endMs: number): void;
}

/**
 * The single-night view's annotation keys: 1–9 score the epoch with the category bound to the key
 * (the bindings loaded per patient), Ctrl+Z / Ctrl+Y undo and redo, M marks with the latest
 * category, ] and [ jump between annotations. `status` says what a key did or why it failed;
 * `bind` binds a key to a category (or unbinds it) and remembers the bindings for the patient.
 */
export function useNightKeys(o: Options) {
  const { t } = useTranslation();
  const { night, channels, view, categories, last, undoable, categoryName } = o;
  const { history, addUndoable } = undoable;
  const [bindings, setBindings] = useState<Bindings | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => {
    if (categories) setBindings(loadBindings(night.patientId, categories));
  }, [categories, night.patientId]);
  const shownRef = useRef(o.shownCharts);
  shownRef.current = o.shownCharts;

  useScoringKeys({
    enabled: o.enabled,
    score: (digit) => {
      const id = bindings?.[digit];
      const category = categories?.find((c) => c.label_id === id);
      if (!category) return false;
      const focused = chartFocus.codes.length > 0 ? chartFocus.codes : shownRef.current;
      const kpis = annotationChannels(focused, channels);
      if (kpis.length === 0) return false;
      const w = scoredWindow(view.store.state.range, night.startMs);
      const draft = scoringDraft(category, w, kpis);
      last.current = { label: category.label_id, color: category.color_code, kpis };
      void addUndoable(draft, category.label).catch((err: Error) => setStatus(err instanceof ApiError ? err.message : String(err)));
      return true;
    },
    undo: () => {
      if (!history.canUndo) return false;
      void history.undo().then((c) => c && setStatus(t('night.scoring.undone', { what: c.label })), (err: Error) => setStatus(err.message));
      return true;
    },
    redo: () => {
      if (!history.canRedo) return false;
      void history.redo().then((c) => c && setStatus(t('night.scoring.redone', { what: c.label })), (err: Error) => setStatus(err.message));
      return true;
    },
    view,
  });

  useAnnotationKeys({
    view,
    annotations: o.annotations,
    recordingStart: night.startMs,
    enabled: o.enabled,
    mark: (startMs, endMs) => {
      const l = last.current;
      if (!l) return false;
      const draft = { kpi: l.kpis, start_time: Math.round(startMs), duration: String(Math.round((endMs - startMs) / 1000)), label: l.label, color_code: l.color, comment: '' };
      void addUndoable(draft, categoryName(l.label)).catch((err: Error) => setStatus(err.message));
      return true;
    },
    open: o.open,
  });
  const bind = (key: string, id: number | null) => {
    const next = { ...bindings, [key]: id ?? undefined };
    if (id === null) delete next[key];
    setBindings(next);
    saveBindings(night.patientId, next);
  };
  return { bindings, bind, status };
}
