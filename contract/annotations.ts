/** Schemas of the annotation and category calls (spec 2 §7, §9): what they take and what they answer. */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable, StringEnum, Types } from './common';

const positive = Type.Integer({ minimum: 1 });
const nightFields = {
  night: Type.Optional(Type.Integer()),
  recording_date: Type.Optional(Type.String({ maxLength: 20 })),
  device_id: Type.Optional(Type.String({ maxLength: 40 })),
  include_deleted: Type.Optional(Type.Boolean()),
};

/** One annotation's fields as clients send them; the comment is bounded by its column. */
const inputFields = {
  kpi: Type.Optional(Types<string | string[]>(['string', 'array'], { maxLength: 200, maxItems: 20, items: { type: 'string', maxLength: 40 } })),
  start_time: Type.Optional(Types<string | number>(['string', 'number'], { maxLength: 40 })),
  end_time: Type.Optional(Types<string | number>(['string', 'number'], { maxLength: 40 })),
  duration: Type.Optional(Type.String({ maxLength: 40 })),
  comment: Type.Optional(Type.String({ maxLength: 10_240 })),
  label: Type.Optional(Types<number | string>(['integer', 'string'], { maxLength: 20 })),
  color_code: Type.Optional(Type.String({ maxLength: 40 })),
  type: Type.Optional(Type.String({ maxLength: 40 })),
};

/** What a client sends for one annotation. */
export const AnnotationInput = Type.Object(inputFields);
export type AnnotationInput = Static<typeof AnnotationInput>;

/**
 * POST /analytics/patient/get-annotations. Without `limit` the whole list, as before; with it
 * one page in (start_ms, annotation_map_id) order, and `next_cursor` to ask for the next one.
 */
export const ListAnnotationsBody = Type.Object({
  patient_id: positive,
  ...nightFields,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
  /** The `next_cursor` of the page before: "<start_ms>:<annotation_map_id>" of its last annotation. */
  cursor: Type.Optional(Type.String({ maxLength: 40, pattern: '^-?\\d{1,16}:-?\\d{1,16}$' })),
});
export type ListAnnotationsBody = Static<typeof ListAnnotationsBody>;

const Str = Type.String();
const Int = Type.Integer();
const Num = Type.Number();
/** A time as the spec writes it: YYYY-MM-DD HH:mm:ss (UTC). */
const SpecTime = Str;
/** An instant, ISO 8601. */
const When = Str;

/**
 * An annotation as the calls answer it (spec 2 §3): a user's mark, or a device-scored event
 * (type `device`: read-only, a negative id, no author, with the vendor and file it came from).
 */
export const Annotation = Type.Object({
  annotation_map_id: Int,
  type: StringEnum(['custom', 'system', 'system-edit', 'desaturation', 'device']),
  /** Night key, Unix seconds. */
  night: Int,
  kpi: Str,
  kpiList: Type.Array(Str),
  start_time: SpecTime,
  end_time: SpecTime,
  start_date: SpecTime,
  end_date: SpecTime,
  /** ms UTC. */
  start_ms: Num,
  end_ms: Num,
  /** h:mm:ss. */
  duration: Str,
  comment: Str,
  label: Int,
  color_code: Str,
  patient_id: Int,
  doctor_id: Int,
  /** Null on a device event. */
  created_by: Nullable(Int),
  updated_by: Nullable(Int),
  created_date: Nullable(When),
  updated_date: Nullable(When),
  delete_flag: Int,
  device_id: Nullable(Str),
  recording_date: Str,
  /** Null once the night it was made on is gone. */
  recording_id: Nullable(Int),
  version: Int,
  /** Double scoring: the round whose scorer's set the mark belongs to (null: a mark of record); absent on a device event. */
  scoring_round_id: Type.Optional(Nullable(Int)),
  /** The round whose consensus wrote this mark of record. */
  consensus_round_id: Type.Optional(Nullable(Int)),
  /** The author's name, as the list call gives it. */
  created_by_name: Type.Optional(Str),
  /** A device-scored event: read-only, with where it came from. */
  read_only: Type.Optional(Type.Boolean()),
  device_kind: Type.Optional(Str),
  vendor: Type.Optional(Str),
  /** Who scored a device-scored event: the device itself, or a scorer (a PSG's scoring file). */
  scored_by: Type.Optional(Enum(['device', 'scorer'])),
  file_name: Type.Optional(Str),
});
export type Annotation = Static<typeof Annotation>;

/** The answer's data: the annotations of the page, and where the next page starts (null: none). */
export const AnnotationPage = Type.Object({
  annotations: Type.Array(Annotation),
  next_cursor: Nullable(Str),
});
export type AnnotationPage = Static<typeof AnnotationPage>;

/**
 * POST /analytics/patient/get-annotation-columns (Nocturne's own, issue 36 point 1): the list of
 * get-annotations in a compact answer for the single-night screen. Pages as the list does, by
 * `limit` (up to 20,000) and `cursor`.
 */
export const AnnotationColumnsBody = Type.Object({
  patient_id: positive,
  ...nightFields,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20_000 })),
  cursor: ListAnnotationsBody.properties.cursor,
});
export type AnnotationColumnsBody = Static<typeof AnnotationColumnsBody>;

/**
 * Its answer: the users' annotations of the page as columns (the i-th entry of each is the
 * i-th annotation, in (start_ms, annotation_map_id) order) with only the fields the screen
 * reads; the authors' names once each; the night's device-scored events whole, on the first
 * page only (they are few, and merged by start on the client). A page as long as `limit` has
 * a `next_cursor` (the page after it may be empty); a shorter one has null.
 */
export const AnnotationColumns = Type.Object({
  columns: Type.Object({
    annotation_map_id: Type.Array(Int),
    type: Type.Array(StringEnum(['custom', 'system', 'system-edit', 'desaturation'])),
    night: Type.Array(Int),
    kpi: Type.Array(Str),
    start_ms: Type.Array(Num),
    end_ms: Type.Array(Num),
    comment: Type.Array(Str),
    label: Type.Array(Int),
    color_code: Type.Array(Str),
    created_by: Type.Array(Int),
    updated_by: Type.Array(Int),
    delete_flag: Type.Array(Int),
    version: Type.Array(Int),
  }),
  /** The names of the page's authors (created_by), as the list's `created_by_name`. */
  authors: Type.Array(Type.Object({ id: Int, name: Str })),
  device: Type.Array(Annotation),
  next_cursor: Nullable(Str),
});
export type AnnotationColumns = Static<typeof AnnotationColumns>;

/** POST /analytics/patient/new-annotations: the annotations made. */
export const AddedAnnotations = Type.Object({ annotations: Type.Array(Annotation) });
/** POST /analytics/patient/update-annotations: the annotation as saved (or deleted). */
export const SavedAnnotation = Type.Object({ annotation: Annotation });
/** POST /analytics/patient/delete-annotations: how many it deleted. */
export const DeletedAnnotations = Type.Object({ deleted: Int });

/** POST /analytics/patient/new-annotations: one annotation, or several in `annotations`. */
export const AddAnnotationsBody = Type.Object({
  patient_id: positive,
  ...nightFields,
  ...inputFields,
  annotations: Type.Optional(Type.Array(AnnotationInput, { maxItems: 500 })),
});
export type AddAnnotationsBody = Static<typeof AddAnnotationsBody>;

/** POST /analytics/patient/update-annotations (also its soft delete, `delete_flag: 1`). */
export const UpdateAnnotationBody = Type.Object({
  ...inputFields,
  annotation_map_id: positive,
  version: Type.Optional(Type.Integer()),
  updated_date: Type.Optional(Type.String({ maxLength: 40 })),
  delete_flag: Type.Optional(Enum([0, 1], { type: 'integer' })),
});
export type UpdateAnnotationBody = Static<typeof UpdateAnnotationBody>;

/** POST /analytics/patient/delete-annotations (the patient and night, when sent, name them in the access trail). */
export const DeleteAnnotationsBody = Type.Object({ ids: Type.Array(positive, { minItems: 1, maxItems: 1000 }), patient_id: Type.Optional(positive), night: Type.Optional(Type.Integer()) });
export type DeleteAnnotationsBody = Static<typeof DeleteAnnotationsBody>;

const text = Type.String({ maxLength: 200 });

/** POST /patient/get-label-list. */
export const ListCategoriesBody = Type.Object({ patient_id: positive });

/** POST /patient/add-label. */
export const AddCategoryBody = Type.Object({ patient_id: positive, label: Type.Optional(text), color_code: Type.Optional(text) });
export type AddCategoryBody = Static<typeof AddCategoryBody>;

/** POST /patient/update-label. */
export const UpdateCategoryBody = Type.Object({
  label_id: positive,
  patient_id: Type.Optional(positive),
  label: Type.Optional(text),
  color_code: Type.Optional(text),
  version: Type.Optional(Type.Integer()),
});
export type UpdateCategoryBody = Static<typeof UpdateCategoryBody>;

/** POST /patient/delete-label. */
export const DeleteCategoryBody = Type.Object({ label_id: positive, version: Type.Optional(Type.Integer()), patient_id: Type.Optional(positive) });
export type DeleteCategoryBody = Static<typeof DeleteCategoryBody>;

/** An annotation category: one of the built-in ones, or a patient's own. */
export const Category = Type.Object({
  label_id: Int,
  label: Str,
  color_code: Str,
  type: StringEnum(['custom', 'built-in']),
  /** A built-in's stable code (apnea, desaturation, hypopnea, movement, central_apnea, obstructive_apnea, irregularities); null for a custom one. */
  code: Nullable(Str),
  /** Null for a built-in. */
  patient_id: Nullable(Int),
  doctor_id: Nullable(Int),
  created_by: Nullable(Int),
  created_date: When,
  updated_by: Nullable(Int),
  updated_date: When,
  version: Int,
});
export type Category = Static<typeof Category>;

/** POST /patient/get-label-list: the patient's categories and how many a patient may have. */
export const CategoryList = Type.Object({ labels: Type.Array(Category), max: Int });
/** POST /patient/add-label and /update-label: the category as saved. */
export const SavedCategory = Type.Object({ label: Category });
