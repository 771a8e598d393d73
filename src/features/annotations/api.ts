import type { AddAnnotationsBody, AddCategoryBody, AnnotationColumnsBody, DeleteCategoryBody, UpdateAnnotationBody, UpdateCategoryBody } from '../../../contract/annotations';
import { call, download } from '../../api/client';
import { saveFile } from '../../api/download';
import { fromColumns, withDevice } from './columns';
import type { Annotation, Category } from './model';

/**
 * Annotations per page of the list call: one page for any night so far (10,000 annotations
 * are ~1 MB of columns), so the first draw waits for one request, not five in a row.
 */
const PAGE = 20_000;

/** Which night the calls are about. */
export interface NightRef {
  patientId: number;
  night: number;
  recordingId: number;
}

export interface AnnotationDraft {
  kpi: string[];
  start_time: number;
  /** h:m:s as typed; or `end_time`, ms UTC, where the span is known to the millisecond (an undo, a field left as it was). */
  duration?: string;
  end_time?: number;
  label: number;
  color_code: string;
  comment: string;
  type?: 'custom' | 'desaturation';
}

/** The annotation and category calls of spec 2 §7. */
export const annotationApi = {
  /** The night's annotations, read as columns in pages of PAGE (a night may hold tens of thousands). */
  async list(n: NightRef): Promise<Annotation[]> {
    const own: Annotation[] = [];
    const device: Annotation[] = [];
    let cursor: string | null = null;
    do {
      const body: AnnotationColumnsBody = { patient_id: n.patientId, night: n.night, limit: PAGE, ...(cursor ? { cursor } : {}) };
      const res = await call('POST /analytics/patient/get-annotation-columns', { body });
      fromColumns(res.data, own);
      device.push(...res.data.device);
      cursor = res.data.next_cursor;
    } while (cursor);
    return withDevice(own, device);
  },
  async add(n: NightRef, draft: AnnotationDraft): Promise<Annotation[]> {
    const body: AddAnnotationsBody = { patient_id: n.patientId, night: n.night, ...draft };
    const res = await call('POST /analytics/patient/new-annotations', { body });
    return res.data.annotations;
  },
  async update(a: Annotation, changes: Partial<AnnotationDraft> & { delete_flag?: 0 | 1 }): Promise<Annotation> {
    const body: UpdateAnnotationBody = { annotation_map_id: a.annotation_map_id, version: a.version, ...changes };
    const res = await call('POST /analytics/patient/update-annotations', { body });
    return res.data.annotation;
  },
  async remove(n: NightRef, ids: number[]): Promise<number> {
    const res = await call('POST /analytics/patient/delete-annotations', { body: { ids, patient_id: n.patientId, night: n.night } });
    return res.data.deleted;
  },
  async generate(n: NightRef, type: 'system' | 'desaturation'): Promise<{ created: number; message: string }> {
    const res = await call('POST /analytics/patient/generate-system-annotations', { body: { patient_id: n.patientId, night: n.night, type } });
    return { created: res.data.created, message: res.message ?? '' };
  },
  async categories(patientId: number): Promise<Category[]> {
    const res = await call('POST /patient/get-label-list', { body: { patient_id: patientId } });
    return res.data.labels;
  },
  async addCategory(patientId: number, label: string, color: string): Promise<Category> {
    const body: AddCategoryBody = { patient_id: patientId, label, color_code: color };
    const res = await call('POST /patient/add-label', { body });
    return res.data.label;
  },
  async updateCategory(c: Category, label: string, color: string): Promise<Category> {
    const body: UpdateCategoryBody = { label_id: c.label_id, label, color_code: color, version: c.version };
    const res = await call('POST /patient/update-label', { body });
    return res.data.label;
  },
  async removeCategory(c: Category): Promise<void> {
    const body: DeleteCategoryBody = { label_id: c.label_id, version: c.version };
    await call('POST /patient/delete-label', { body });
  },
};

/** Downloads the night's annotations as CSV. */
export const downloadAnnotationsCsv = async (n: NightRef): Promise<void> =>
  saveFile(await download('GET /analytics/patient/annotations-csv', 'text/csv', { query: { patient_id: n.patientId, recording_id: n.recordingId } }), `annotations_${n.night}.csv`);
