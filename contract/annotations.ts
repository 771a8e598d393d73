/** Request schemas of the annotation and category calls (spec 2 §7, §9). */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Types } from './common';

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

/** The answer's data: the annotations of the page, and where the next page starts (null: none). */
export const AnnotationPage = Type.Object({
  annotations: Type.Array(Type.Object({ annotation_map_id: Type.Integer(), start_ms: Type.Number() }, { additionalProperties: true })),
  next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type AnnotationPage = Static<typeof AnnotationPage>;

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

/** POST /analytics/patient/delete-annotations. */
export const DeleteAnnotationsBody = Type.Object({ ids: Type.Array(positive, { minItems: 1, maxItems: 1000 }) });
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
