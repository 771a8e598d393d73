/**
 * Scoring files: a night's annotations as NSRR XML or as an EDF+ annotation file, and either
 * file imported back onto a night (issue 36 point 4).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, id, StringEnum } from './common';
import { SCORING_SOURCES } from './night-rules';

/** GET /analytics/patient/export-nsrr-xml and /export-edf-annotations. */
export const ScoringExportQuery = Type.Object({
  patient_id: id,
  recording_id: id,
  /** Default `all`. */
  source: Type.Optional(StringEnum(SCORING_SOURCES)),
  /** Only the marks this user created (human marks). */
  author: Type.Optional(id),
});
export type ScoringExportQuery = Static<typeof ScoringExportQuery>;

/** Largest scoring file taken, in bytes (a 10-h night with 10,000 NSRR events is about 2 MB). */
export const SCORING_FILE_MAX_BYTES = 32 * 1024 * 1024;

/** POST /analytics/patient/import-scoring: one NSRR XML or EDF+ file, base64, onto a night. */
export const ScoringImportBody = Type.Object({
  patient_id: id,
  recording_id: id,
  file_name: Type.String({ minLength: 1, maxLength: 200 }),
  content_base64: Type.String({ minLength: 1, maxLength: Math.ceil(SCORING_FILE_MAX_BYTES / 3) * 4, pattern: '^[A-Za-z0-9+/=\\r\\n]*$' }),
  /** A file's label → the name of a category to file it under (else matched by name, then created). */
  category_map: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.String({ minLength: 1, maxLength: 20 }))),
});
export type ScoringImportBody = Static<typeof ScoringImportBody>;

/**
 * What an imported file's sleep stages became (decision 1051): the night's staging (a night
 * without one, imported by a physician: the file is then the night's own scoring file, its
 * events the night's scored events, no marks), or marks beside the night's own staging, or on a
 * night still being recorded (its device stages it), or an
 * annotator's marks (annotators import no recording), or the marks of a file that holds signals
 * too (a recording: "Import recording" adds its signals and staging).
 */
export const SCORING_STAGES_AS = ['night_staging', 'marks_beside_staging', 'marks_live_night', 'marks_annotator', 'marks_recording_file'] as const;
export type ScoringStagesAs = (typeof SCORING_STAGES_AS)[number];

/** POST /analytics/patient/import-scoring: what the import did with the file's marks. */
export const ScoringImportAnswer = Type.Object({
  format: StringEnum(['nsrr-xml', 'profusion-xml', 'edf+']),
  imported: Type.Integer(),
  /** Marks already on the night (same start, end, category and channels): not added twice. */
  duplicates: Type.Integer(),
  /** Marks outside the night's recording: not added. */
  outside: Type.Integer(),
  /** Marks of no duration (instants), kept as 1 s. */
  instants: Type.Integer(),
  categories_created: Type.Array(Type.String()),
  /** File label → the category it was filed under. */
  labels: Type.Record(Type.String(), Type.String()),
  /** Channels the file named that the night lacks (or none named), and where the marks went. */
  channels_substituted: Type.Array(Type.Object({ from: Nullable(Type.String()), to: Type.String(), count: Type.Integer() })),
  annotation_ids: Type.Array(Type.Integer()),
  /** The file's sleep stages (null: it has none): how many 30-s epochs, what they became, and the scored events the night took with them. */
  stages: Nullable(Type.Object({ epochs: Type.Integer(), as: StringEnum(SCORING_STAGES_AS), scored_events: Type.Integer() })),
});
export type ScoringImportAnswer = Static<typeof ScoringImportAnswer>;
