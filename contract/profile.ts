/** Request schemas of the profile popup's calls (spec 1 §4, §7); the profile update is a multipart form, read field by field. */
import { Type } from '@sinclair/typebox';

/** Names the server gives avatars: 32 hex digits and the type's extension (and the default's). Nothing else is looked up. */
const AVATAR_NAME = '^[A-Za-z0-9_-]{1,64}\\.(jpg|jpeg|png)$';

/** GET /get-avatar/:name. */
export const AvatarParams = Type.Object({ name: Type.String({ pattern: AVATAR_NAME, maxLength: 80 }) });
