/** Request schemas of sign-in, password reset and signup. */
import { Type, type Static } from '@sinclair/typebox';
import { email, newPassword, otp, password, Strict } from './common';

/** POST /login. */
export const LoginBody = Strict({ email, password });
export type LoginBody = Static<typeof LoginBody>;

/** POST /verify-otp and /forgot-password-verify-otp. */
export const OtpBody = Strict({ email, otp });
export type OtpBody = Static<typeof OtpBody>;

/** POST /forgot-password. */
export const ForgotPasswordBody = Strict({ email });
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

/** PATCH /reset-password. */
export const ResetPasswordBody = Strict({ email, reset_token: Type.String({ minLength: 1, maxLength: 200 }), password: newPassword });
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

const name = Type.String({ minLength: 1, maxLength: 30, pattern: "^[\\p{L}][\\p{L} .'-]*$" });

/** POST /signup. */
export const SignupBody = Strict({
  first_name: name,
  last_name: name,
  email,
  password: newPassword,
  country: Type.String({ minLength: 1, maxLength: 80 }),
  organisation_name: Type.Optional(Type.String({ maxLength: 80 })),
});
export type SignupBody = Static<typeof SignupBody>;

/** POST /forgot-password-verify-otp: the token that lets PATCH /reset-password set a new password. */
export const ResetTokenAnswer = Type.Object({ reset_token: Type.String() });
export type ResetTokenAnswer = Static<typeof ResetTokenAnswer>;
