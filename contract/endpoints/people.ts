/** The routes of this part of the API and their schemas (contract/api.ts): accounts, profiles, preferences, the practice screens. */
import { Type } from '@sinclair/typebox';
import { Answer, Country, Done, FileAnswer, UserDetails, VerifiedOtp } from '../answers';
import { ForgotPasswordBody, LoginBody, OtpBody, ResetPasswordBody, ResetTokenAnswer, SignupBody } from '../auth';
import { SignupDecided, SignupDecisionBody, SignupDecisionParams, SignupsAnswer } from '../signup-review';
import { AvatarParams, ProfileAnswer, SpecialisationsAnswer } from '../profile';
import { KpiOrderAnswer, KpiOrderBody, PhysicianPreferences, TrendKpiOrderAnswer, TrendKpiOrderBody } from '../preferences';
import { OutboxAnswer, OutboxQuery } from '../dev';
import { Appointment, AppointmentsQuery, CalendarAnswer, CalendarQuery, PracticeSettings } from '../practice';

export const peopleEndpoints = {
  // Sign-in, the session, forgot password (server/auth/routes.ts).
  'POST /login': { body: LoginBody, response: { 200: Done() } },
  'POST /verify-otp': { body: OtpBody, response: { 202: Answer(VerifiedOtp) } },
  'GET /logout': { response: { 200: Done() } },
  'GET /user': { response: { 200: Answer(Type.Object({ user_details: UserDetails })) } },
  'POST /forgot-password': { body: ForgotPasswordBody, response: { 200: Done() } },
  'POST /forgot-password-verify-otp': { body: OtpBody, response: { 200: Answer(ResetTokenAnswer) } },
  'PATCH /reset-password': { body: ResetPasswordBody, response: { 200: Done() } },
  // The country list and signup (server/auth/account-routes.ts).
  'GET /countries': { response: { 200: Answer(Type.Object({ countries: Type.Array(Country) })) } },
  'POST /signup': { body: SignupBody, response: { 201: Done() } },
  // Signup approval (server/auth/signup-review-routes.ts).
  'GET /admin/signups': { response: { 200: Answer(SignupsAnswer) } },
  'POST /admin/signups/:id/:decision': { params: SignupDecisionParams, body: SignupDecisionBody, response: { 200: Answer(SignupDecided) } },
  // The profile popup (server/profile/routes.ts); the update is a multipart form, read field by field.
  'GET /user/profile': { response: { 200: Answer(ProfileAnswer) } },
  'GET /physician/specialisations': { response: { 200: Answer(SpecialisationsAnswer) } },
  'POST /update-user-info': { response: { 200: Answer(ProfileAnswer) } },
  'GET /get-avatar/:name': { params: AvatarParams, response: { 200: FileAnswer('image/*') } },
  // Preferences (server/profile/preferences-routes.ts).
  'GET /physician/preferences': { response: { 200: Answer(PhysicianPreferences) } },
  'POST /patient/update-kpi-preferences': { body: KpiOrderBody, response: { 200: Answer(KpiOrderAnswer) } },
  'POST /patient/update-trendview-kpi-preference': { body: TrendKpiOrderBody, response: { 200: Answer(TrendKpiOrderAnswer) } },
  // The development outbox (server/dev/routes.ts; registered only without SMTP, outside production).
  'GET /dev/outbox': { querystring: OutboxQuery, response: { 200: Answer(OutboxAnswer) } },
  // The practice screens (server/practice/routes.ts).
  'GET /practice/calendar': { querystring: CalendarQuery, response: { 200: Answer(CalendarAnswer) } },
  'GET /practice/appointments': { querystring: AppointmentsQuery, response: { 200: Answer(Type.Array(Appointment)) } },
  'GET /practice/settings': { response: { 200: Answer(PracticeSettings) } },
};
