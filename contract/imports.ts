/**
 * Schemas of imports: the physician's label map (file label → channel code) and what an upload
 * answers. The upload itself is a multipart form, its fields checked one by one by the route.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Strict, StringEnum } from './common';
import { DeviceSummaryImport } from './deviceSummaries';

/** A channel code a label maps to: letters, digits and underscores, at most 40. */
export const CHANNEL_CODE_PATTERN = '^[A-Za-z0-9_]{0,40}$';

/** POST /recordings/label-map: the labels to set, each with its code (others are kept). */
export const LabelMapBody = Strict({
  label_map: Type.Unsafe<Record<string, string>>({
    type: 'object',
    maxProperties: 200,
    propertyNames: { minLength: 1, maxLength: 80 },
    additionalProperties: { type: 'string', pattern: CHANNEL_CODE_PATTERN },
  }),
});
export type LabelMapBody = Static<typeof LabelMapBody>;

/** Upload sizes (the server's; the import dialog checks them before sending). Files per upload: UPLOAD_MAX_FILES. */
export const UPLOAD_LIMITS = {
  /** One file, bytes. */
  maxFileBytes: 512 * 1024 * 1024,
  /** All files of one upload together, bytes. */
  maxUploadBytes: 1024 * 1024 * 1024,
} as const;


const Str = Type.String();
const Int = Type.Integer();
const Num = Type.Number();

/** One imported channel as the import summary lists it. */
export const SummaryChannel = Type.Object({
  code: Str,
  label: Str,
  /** Samples per second. */
  rate: Num,
  unit: Str,
  samples: Int,
  /** Samples made missing: outside the code's physiological range / not finite. */
  outOfRange: Int,
  nonFinite: Int,
});

/** Where a code of the night came from: its file(s) and valid samples (0: every sample missing). */
export const CodeSource = Type.Object({ code: Str, label: Str, files: Type.Array(Str), valid: Int });
export type CodeSource = Static<typeof CodeSource>;

/** What an import did with each signal of its files (issue 12 §7–8). */
export const ImportSummary = Type.Object({
  channels: Type.Array(SummaryChannel),
  /** Checksum and status signals, not imported as channels. */
  skipped: Type.Array(Type.Object({ file: Str, label: Str, reason: Str })),
  /** Labels the default map would have given a code their unit or rate does not fit: kept under their own label. */
  unmapped: Type.Array(Type.Object({ file: Str, label: Str, code: Str, reason: Str })),
  /** Which file(s) each code came from, with its valid samples. */
  sources: Type.Array(CodeSource),
});
export type ImportSummary = Static<typeof ImportSummary>;

/** A file of an upload that was not imported. */
export const SkippedFile = Type.Object({
  name: Str,
  /**
   * 'same_in_upload': byte-identical to another file of this upload; 'already_stored': imported
   * before for this patient; 'no_data': it holds no data records (a session too short to record);
   * 'macos_metadata': a macOS "._" companion file, no recording (decision 1035).
   */
  reason: StringEnum(['same_in_upload', 'already_stored', 'no_data', 'macos_metadata']),
  /** The file it is the same as (this upload's, or the stored one's name); not for 'no_data' or 'macos_metadata'. */
  same_as: Type.Optional(Str),
  /** For 'already_stored': the night key it is stored under. */
  night: Type.Optional(Int),
  /** For 'no_data' and 'macos_metadata': the reader's words (field and problem). */
  problem: Type.Optional(Str),
});
export type SkippedFile = Static<typeof SkippedFile>;

/** One night of an upload: what its files brought, and the night they made or joined. */
const nightFields = {
  recording_id: Int,
  /** The upload's span, ms UTC. */
  recording_start_time: Num,
  recording_stop_time: Num,
  timezone: Str,
  channels: Type.Array(Type.Object({ code: Str, label: Str, fs: Num, count: Int })),
  events: Int,
  summary: ImportSummary,
  /** True when the files joined a night the patient already had. */
  merged: Type.Boolean(),
  /** The night key (Unix seconds) the files were stored under. */
  night: Int,
  /** The stored night's span after the import (wider than the upload's when merged), ms UTC. */
  night_start_time: Num,
  night_stop_time: Num,
  files: Type.Array(Type.Object({ name: Str, md5: Str })),
  /** Files left out: byte-identical to another of the upload, stored before, or holding no data. */
  skipped_files: Type.Array(SkippedFile),
  /** Device-scored events the files carried. */
  device_events: Int,
};

/** Another night of the same upload (a card's DATALOG folder of several nights). */
export const OtherImportedNight = Type.Object(nightFields);
export type OtherImportedNight = Static<typeof OtherImportedNight>;

/** An imported night (POST /patient/upload-recording): what the upload brought, and the night it joined. */
export const ImportedNight = Type.Object({
  ...nightFields,
  /** Device summary files of the same upload (ResMed STR.edf), when there were some. */
  device_summary: Type.Optional(DeviceSummaryImport),
  /** The upload's later nights when its files were several (decision 1021), earliest first; this answer is its first night. */
  other_nights: Type.Optional(Type.Array(OtherImportedNight)),
});
export type ImportedNight = Static<typeof ImportedNight>;

/** An upload of only a device's daily summary files: no night is made. */
export const DeviceSummaryOnly = Type.Object({ device_summary: DeviceSummaryImport });

/** POST /patient/upload-recording: an imported night, or only a device's daily summary. */
export const UploadAnswer = Type.Union([ImportedNight, DeviceSummaryOnly]);
export type UploadAnswer = Static<typeof UploadAnswer>;

/** GET /recordings/upload-limits: what one upload may hold. */
export const UploadLimits = Type.Object({ max_files: Int, max_file_bytes: Int, max_upload_bytes: Int });
export type UploadLimits = Static<typeof UploadLimits>;

/** GET and POST /recordings/label-map: the physician's saved label map (file label → channel code). */
export const LabelMapAnswer = Type.Object({ label_map: Type.Record(Str, Str) });
export type LabelMapAnswer = Static<typeof LabelMapAnswer>;
