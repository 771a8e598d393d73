/** Request schemas of signup approval (issue 16 point 3): an admin approves or refuses a waiting account. */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, id, Types } from './common';

/** What an admin decides about a waiting account. */
export const SignupDecision = Enum(['approve', 'refuse']);
export type SignupDecision = Static<typeof SignupDecision>;

/** POST /admin/signups/:id/:decision: the account and the decision. */
export const SignupDecisionParams = Type.Object({ id, decision: SignupDecision });

/** The optional reason, mailed to the applicant; the body may be null. */
export const SignupDecisionBody = Types<{ reason?: string } | null>(['object', 'null'], { additionalProperties: false, properties: { reason: Type.String({ maxLength: 500 }) } });
export type SignupDecisionBody = Static<typeof SignupDecisionBody>;
