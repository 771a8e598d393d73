/**
 * Request schemas of imports: the physician's label map (file label → channel code). The upload
 * itself is a multipart form, its fields checked one by one by the route.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Strict } from './common';

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
