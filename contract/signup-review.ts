/** Schemas of signup approval (issue 16 point 3): an admin approves or refuses a waiting account. */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, id, Nullable, Types } from './common';

/** What an admin decides about a waiting account. */
export const SignupDecision = Enum(['approve', 'refuse']);
export type SignupDecision = Static<typeof SignupDecision>;

/** POST /admin/signups/:id/:decision: the account and the decision. */
export const SignupDecisionParams = Type.Object({ id, decision: SignupDecision });

/** The optional reason, mailed to the applicant; the body may be null. */
export const SignupDecisionBody = Types<{ reason?: string } | null>(['object', 'null'], { additionalProperties: false, properties: { reason: Type.String({ maxLength: 500 }) } });
export type SignupDecisionBody = Static<typeof SignupDecisionBody>;

const Str = Type.String();

/** An account waiting since signup, or decided in the last 90 days. */
export const Signup = Type.Object({
  user_id: Type.Integer(),
  email: Str,
  first_name: Str,
  last_name: Str,
  country: Nullable(Str),
  organisation_name: Nullable(Str),
  status: Enum(['pending', 'active', 'refused', 'disabled']),
  /** ISO instants: signed up, and decided (null while waiting). */
  created_at: Str,
  reviewed_at: Nullable(Str),
  /** The deciding admin's e-mail address (null while waiting). */
  reviewed_by: Nullable(Str),
  review_reason: Str,
});
export type Signup = Static<typeof Signup>;

/** GET /admin/signups: everyone waiting, then the latest decisions. */
export const SignupsAnswer = Type.Object({ signups: Type.Array(Signup) });
export type SignupsAnswer = Static<typeof SignupsAnswer>;

/** POST /admin/signups/:id/:decision: the account decided. */
export const SignupDecided = Type.Object({ user_id: Type.Integer() });
