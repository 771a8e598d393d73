import { useEffect, useMemo, useRef, useState } from 'react';
import '../../styles/annotations.css';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../api/errors';
import { session } from '../../state/session';
import type { ViewController } from '../../state/view';
import { AnnotationPopup, type PopupMode } from './AnnotationPopup';
import { AnnotationSidebar } from './AnnotationSidebar';
import { downloadAnnotationsCsv, type AnnotationDraft, type NightRef } from './api';
import { onAnnotationRequest } from './intents';
import { displayable, isReadOnly, isVisible, type Annotation, type Visibility } from './model';
import { useAnnotationMutations, useAnnotations, useCategories } from './queries';
import { useAnnotationKeys } from './useAnnotationKeys';

export interface AnnotatedNight extends NightRef {
  startMs: number;
  stopMs: number;
  timezone: string;
}

interface Props {
  night: AnnotatedNight;
  /** Channel codes of the night, for the popup and the display filter. */
  channels: string[];
  view: ViewController;
  /** Hands the visible annotations to the renderer, to draw as bands on their channels. */
  onVisible?(annotations: Annotation[]): void;
}

type Popup = { mode: PopupMode; annotation?: Annotation; prefill?: { startMs: number; durationS?: number; kpis?: string[]; label?: number } } | null;

/** The annotation sidebar, popup and keys of the single-night view (issue 6). */
export function NightAnnotations({ night, channels, view, onVisible }: Props) {
  const user = useSnapshot(session).user_details;
  const readOnly = user?.is_admin === true;
  const canGenerate = user?.membership_type !== 'paid';
  const list = useAnnotations(night);
  const categories = useCategories(night.patientId);
  const m = useAnnotationMutations(night);
  const [visibility, setVisibility] = useState<Visibility>({ system: true, custom: true, desaturation: true, device: true });
  const [popup, setPopup] = useState<Popup>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const last = useRef<{ label: number; color: string; kpis: string[] } | null>(null);

  const known = useMemo(() => new Set([...channels, 'AP_timing', 'DSAT', 'AHI', 'SQB', 'ODI']), [channels]);
  const shown = useMemo(() => (list.data ?? []).filter((a) => displayable(a, known)), [list.data, known]);
  useEffect(() => {
    onVisible?.(shown.filter((a) => isVisible(a, visibility)));
  }, [shown, visibility, onVisible]);

  useEffect(
    () =>
      onAnnotationRequest((r) => {
        setPopup({ mode: 'add', prefill: { startMs: r.startMs, durationS: Math.max(1, Math.round((r.endMs - r.startMs) / 1000)), kpis: r.channel ? [r.channel] : last.current?.kpis, label: last.current?.label } });
      }),
    [],
  );

  const save = async (draft: AnnotationDraft) => {
    if (popup?.annotation) await m.update.mutateAsync({ a: popup.annotation, changes: draft });
    else await m.add.mutateAsync(draft);
    last.current = { label: draft.label, color: draft.color_code, kpis: draft.kpi };
  };

  useAnnotationKeys({
    view,
    annotations: shown,
    recordingStart: night.startMs,
    enabled: !readOnly && !popup,
    mark: (startMs, endMs) => {
      const l = last.current;
      if (!l) return false;
      m.add.mutate({ kpi: l.kpis, start_time: Math.round(startMs), duration: String(Math.round((endMs - startMs) / 1000)), label: l.label, color_code: l.color, comment: '' });
      return true;
    },
    open: (startMs, endMs) => setPopup({ mode: 'add', prefill: { startMs, durationS: Math.round((endMs - startMs) / 1000) } }),
  });

  const generate = (type: 'system' | 'desaturation') => {
    setNotice(null);
    m.generate.mutate(type, {
      onSuccess: (r) => setNotice(r.message),
      onError: (err) => setNotice(err instanceof ApiError ? err.message : String(err)),
    });
  };

  return (
    <>
      <AnnotationSidebar
        annotations={shown}
        categories={categories.data ?? []}
        visibility={visibility}
        timezone={night.timezone}
        readOnly={readOnly}
        canGenerate={canGenerate}
        generating={m.generate.isPending}
        notice={notice}
        onVisibility={setVisibility}
        onView={(a) => {
          view.dispatch({ type: 'moveTo', at: (a.start_ms + a.end_ms) / 2 });
          // Device events are read-only: the sidebar row says all there is; no popup to edit from.
          if (!isReadOnly(a)) setPopup({ mode: 'view', annotation: a });
        }}
        onEdit={(a) => setPopup({ mode: 'edit', annotation: a })}
        onDeleteMany={(ids) => m.remove.mutateAsync(ids)}
        onGenerate={generate}
        onExport={() => void downloadAnnotationsCsv(night, session.token).catch((err: Error) => setNotice(err.message))}
        onAdd={() => setPopup({ mode: 'add', prefill: { startMs: view.store.state.range.t0, kpis: last.current?.kpis, label: last.current?.label } })}
      />
      {popup && (
        <AnnotationPopup
          key={`${popup.mode}-${popup.annotation?.annotation_map_id ?? 'new'}-${popup.annotation?.version ?? 0}`}
          mode={popup.mode}
          night={night}
          channels={channels}
          categories={categories.data ?? []}
          annotation={popup.annotation}
          prefill={popup.prefill}
          readOnly={readOnly}
          onSave={save}
          onDelete={popup.annotation ? () => m.update.mutateAsync({ a: popup.annotation!, changes: { delete_flag: 1 } }) : undefined}
          onMode={(mode) => setPopup({ ...popup, mode })}
          onClose={() => setPopup(null)}
          categoryActions={{
            onCreate: (label, color) => m.addCategory.mutateAsync({ label, color }),
            onUpdate: (c, label, color) => m.updateCategory.mutateAsync({ c, label, color }),
            onDelete: (c) => m.removeCategory.mutateAsync(c),
          }}
        />
      )}
    </>
  );
}
