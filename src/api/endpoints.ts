import type { SignupBody } from '../../contract/auth';
import { call, type RequestOptions } from './client';

/** One function per server route this app calls, named after what it does. */
export const api = {
  login: (email: string, password: string) => call('POST /login', { body: { email, password } }),
  verifyOtp: (email: string, otp: string) => call('POST /verify-otp', { body: { email, otp } }),
  logout: () => call('GET /logout'),
  user: (options?: RequestOptions) => call('GET /user', undefined, options),
  countries: () => call('GET /countries'),
  signup: (input: SignupBody) => call('POST /signup', { body: input }),
  forgotPassword: (email: string) => call('POST /forgot-password', { body: { email } }),
  forgotPasswordVerifyOtp: (email: string, otp: string) => call('POST /forgot-password-verify-otp', { body: { email, otp } }),
  resetPassword: (email: string, reset_token: string, password: string) => call('PATCH /reset-password', { body: { email, reset_token, password } }),
  patients: () => call('GET /physician/patients', { query: {} }),
};
