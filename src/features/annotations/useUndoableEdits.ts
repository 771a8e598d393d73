import { useMemo, useRef } from 'react';
import type { AnnotationDraft, NightRef } from './api';
import { AnnotationEdits } from './editCommands';
import { EditHistory } from './editHistory';
import type { Annotation } from './model';
import type { useAnnotationMutations } from './queries';

/**
 * Undo/redo of a night's annotation edits: writes go through `m` as undoable edits pushed on the
 * night's history; a new night starts a new history.
 */
export function useUndoableEdits(night: NightRef, m: ReturnType<typeof useAnnotationMutations>, annotations: readonly Annotation[], categoryName: (label: number) => string) {
  const history = useMemo(() => new EditHistory(), [night.patientId, night.night]);
  const writes = useRef(m);
  writes.current = m;
  const edits = useMemo(
    () =>
      new AnnotationEdits({
        add: (d) => writes.current.add.mutateAsync(d),
        update: (a, changes) => writes.current.update.mutateAsync({ a: a as Annotation, changes }),
        remove: (ids) => writes.current.remove.mutateAsync(ids),
      }),
    [history],
  );
  /** Saves a new annotation as an undoable edit (the undo deletes exactly what was created). */
  const addUndoable = async (draft: AnnotationDraft, label: string) => history.push(await edits.add(draft, label));
  /** Deletes annotations as one undoable edit (the undo makes them again as they were). */
  const removeUndoable = async (ids: number[]) => {
    const gone = annotations.filter((a) => ids.includes(a.annotation_map_id));
    history.push(await edits.remove(gone, gone.length === 1 ? categoryName(gone[0].label) : String(gone.length)));
  };
  return { history, edits, addUndoable, removeUndoable };
}
