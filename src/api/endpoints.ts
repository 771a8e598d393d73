import type { ForgotPasswordBody, LoginBody, OtpBody, ResetPasswordBody, SignupBody } from '../../contract/auth';
import { call, request } from './client';
import type { Country, UserDetails, VerifiedOtp } from '../../contract/answers';

/** One function per server route this app calls, named after what it does. */
export const api = {
  login: (email: string, password: string) => request<never>('POST', '/login', { email, password } satisfies LoginBody),
  verifyOtp: (email: string, otp: string) => request<VerifiedOtp>('POST', '/verify-otp', { email, otp } satisfies OtpBody),
  logout: () => request<never>('GET', '/logout'),
  user: () => request<{ user_details: UserDetails }>('GET', '/user'),
  countries: () => request<{ countries: Country[] }>('GET', '/countries'),
  signup: (input: SignupBody) => request<never>('POST', '/signup', input),
  forgotPassword: (email: string) => request<never>('POST', '/forgot-password', { email } satisfies ForgotPasswordBody),
  forgotPasswordVerifyOtp: (email: string, otp: string) =>
    request<{ reset_token: string }>('POST', '/forgot-password-verify-otp', { email, otp } satisfies OtpBody),
  resetPassword: (email: string, reset_token: string, password: string) =>
    request<never>('PATCH', '/reset-password', { email, reset_token, password } satisfies ResetPasswordBody),
  patients: () => call('GET /physician/patients', { query: {} }),
};
