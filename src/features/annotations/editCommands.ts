// The undoable annotation edits of the review screen, as commands for EditHistory: an add,
// an edit and a delete each know how to take themselves back and make themselves again.
// An annotation re-created by undoing its delete gets a new id; every command about it
// follows it through a shared reference, so a later undo of an edit still finds it.
import type { AnnotationDraft } from './api';
import type { EditCommand } from './editHistory';
import { escapeText, type Annotation } from './model';

type Changes = Partial<AnnotationDraft> & { delete_flag?: 0 | 1 };

/** The writes the commands make, the same calls a user's clicks make. */
export interface AnnotationWrites {
  add(draft: AnnotationDraft): Promise<Annotation[]>;
  update(a: Pick<Annotation, 'annotation_map_id' | 'version'>, changes: Changes): Promise<Annotation>;
  remove(ids: number[]): Promise<unknown>;
}

/** Where one annotation is now (its id and version move as it is edited, deleted, re-created). */
interface Ref {
  annotation_map_id: number;
  version: number;
}

/** The draft that makes an annotation again exactly as it is. */
function draftOf(a: Annotation): AnnotationDraft {
  return {
    kpi: a.kpiList,
    // To the millisecond, whatever its length: an undo makes it again exactly as it was.
    start_time: a.start_ms,
    end_time: a.end_ms,
    label: a.label,
    color_code: a.color_code,
    comment: escapeText(a.comment),
    ...(a.type === 'desaturation' ? { type: 'desaturation' as const } : {}),
  };
}

/** Builds the commands for one night's history; one instance per history. */
export class AnnotationEdits {
  private readonly refs = new Map<number, Ref>();

  constructor(private readonly writes: AnnotationWrites) {}

  /** The reference of an annotation as the screen shows it now (its version is the newest known). */
  private refOf(a: Pick<Annotation, 'annotation_map_id' | 'version'>): Ref {
    const ref = this.refs.get(a.annotation_map_id) ?? { annotation_map_id: a.annotation_map_id, version: a.version };
    ref.version = a.version;
    this.refs.set(a.annotation_map_id, ref);
    return ref;
  }

  private moved(ref: Ref, now: Annotation): void {
    this.refs.delete(ref.annotation_map_id);
    ref.annotation_map_id = now.annotation_map_id;
    ref.version = now.version;
    this.refs.set(ref.annotation_map_id, ref);
  }

  /** Adds an annotation; its undo deletes exactly what was created. */
  async add(draft: AnnotationDraft, label: string): Promise<EditCommand> {
    const refs = (await this.writes.add(draft)).map((a) => this.refOf(a));
    return {
      label,
      undo: async () => {
        await this.writes.remove(refs.map((r) => r.annotation_map_id));
      },
      redo: async () => {
        const made = await this.writes.add(draft);
        refs.forEach((r, i) => made[i] && this.moved(r, made[i]));
      },
    };
  }

  /** Edits an annotation; its undo puts back the version before the edit, its redo the edit. */
  async edit(before: Annotation, changes: AnnotationDraft, label: string): Promise<EditCommand> {
    const ref = this.refOf(before);
    ref.version = (await this.writes.update(ref, changes)).version;
    const previous = draftOf(before);
    const apply = async (c: Changes) => {
      ref.version = (await this.writes.update(ref, c)).version;
    };
    return { label, undo: () => apply(previous), redo: () => apply(changes) };
  }

  /** Deletes annotations; the undo makes each again as it was (under a new id). */
  async remove(annotations: Annotation[], label: string): Promise<EditCommand> {
    const refs = annotations.map((a) => ({ ref: this.refOf(a), draft: draftOf(a) }));
    // One annotation goes by its version, so a delete of a version someone else changed is refused.
    if (refs.length === 1) await this.writes.update(refs[0].ref, { delete_flag: 1 });
    else await this.writes.remove(refs.map((r) => r.ref.annotation_map_id));
    return {
      label,
      undo: async () => {
        for (const { ref, draft } of refs) {
          const [made] = await this.writes.add(draft);
          if (made) this.moved(ref, made);
        }
      },
      redo: async () => {
        await this.writes.remove(refs.map((r) => r.ref.annotation_map_id));
      },
    };
  }
}
