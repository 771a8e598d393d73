import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import type { Api } from '../typed-api';
import { authenticate, currentUser } from '../context';
import { ApiError } from '../errors';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords';
import { consumeOtp, hasLiveOtp, issueOtp, OTP_TTL_MS } from './otp';
import { announceSessionsEnded, checkToken, issueToken, revokeAllTokens, revokeToken } from './tokens';
import { findUserByEmail, normaliseEmail, setPasswordHash, userDetails, type UserRow } from './users';
import { hit, isFull, LIMITS, lockBuckets, record, take, type Bucket } from '../services/rate-limit';
import { peopleEndpoints } from '../../contract/endpoints/people';
import { ACCOUNT_REFUSED } from './signup-review-routes';

const INVALID_LOGIN = 'Invalid email or password!';
const INVALID_OTP = 'The code is wrong or has expired. Request a new code and try again.';
const OTP_MINUTES = OTP_TTL_MS / 60_000;

const ip = (request: FastifyRequest) => request.ip;

/** Failure buckets of a sign-in step: this account from this address, and this address. */
const failureBuckets = (step: 'login' | 'otp', address: string, request: FastifyRequest): Bucket[] => [
  [`${step}:pair:${address}|${ip(request)}`, step === 'login' ? LIMITS.loginPair : LIMITS.otpPair],
  [`${step}:address:${ip(request)}`, step === 'login' ? LIMITS.loginAddress : LIMITS.otpAddress],
];

/**
 * Reset mail per account is bounded (LIMITS.forgotAccountMail) without refusing anyone:
 * past the bound no new mail goes out while the newest one's code is still usable, so
 * requests from elsewhere cannot take the owner's reset away. A code killed by wrong
 * guesses or used up lets the next request mail a new one.
 */
async function mailResetCode(ctx: AppContext, user: { id: number; email: string }): Promise<void> {
  const bucket: Bucket = [`forgot:mail:${user.id}`, LIMITS.forgotAccountMail];
  // Counted and issued under the bucket's lock, so a burst of requests cannot all pass the bound at once.
  const code = await ctx.db.transaction(async (tx) => {
    await lockBuckets(tx, [bucket]);
    if ((await isFull(tx, [bucket])) && (await hasLiveOtp(tx, user.id, 'password_reset'))) return null;
    await record(tx, [bucket]);
    return issueOtp(tx, user.id, 'password_reset');
  });
  if (code === null) return;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Reset your Nocturne password',
    text: `Your password reset code is ${code}. It expires in ${OTP_MINUTES} minutes and works once.\n\nIf you did not ask to reset your password, ignore this message.`,
    code,
  });
}

/** Refuses an account that may not sign in yet (or any more), with its reason. */
function checkStatus(user: UserRow): void {
  if (user.status === 'pending') {
    throw new ApiError(403, 'account_pending', 'Your account is waiting for approval. We will contact you soon.');
  }
  // The admin's reason, if one was given, goes to the applicant (who proved the password) only.
  if (user.status === 'refused') throw new ApiError(403, 'account_refused', ACCOUNT_REFUSED, user.review_reason ? { details: { reason: user.review_reason } } : undefined);
  if (user.status === 'disabled') throw new ApiError(403, 'account_disabled', 'This account has been disabled.');
}

/** Sign-in: the password, then the one-time code that makes a session. */
function signInRoutes(app: Api, ctx: AppContext) {
  const { db, mailer } = ctx;
  app.post('/login', { schema: peopleEndpoints['POST /login'] }, async (request, reply) => {
    const address = normaliseEmail(request.body.email);
    // Counted before the password is checked (and given back when it was right).
    const attempt = await take(db, failureBuckets('login', address, request));
    const user = await findUserByEmail(db, address);
    const ok = await verifyPassword(request.body.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok || user.role === 'system') throw new ApiError(401, 'invalid_login', INVALID_LOGIN);
    await attempt.refund();
    checkStatus(user);
    const code = await issueOtp(db, user.id, 'login');
    await mailer.send({
      to: user.email,
      subject: 'Your Nocturne sign-in code',
      text: `Your one-time sign-in code is ${code}. It expires in ${OTP_MINUTES} minutes and works once.\n\nIf you did not try to sign in, change your password.`,
      code,
    });
    return reply.code(200).send({ code: 'user_verified_check_otp', message: 'A one-time code was sent to your e-mail address.' });
  });

  app.post('/verify-otp', { schema: peopleEndpoints['POST /verify-otp'] }, async (request, reply) => {
    const address = normaliseEmail(request.body.email);
    const attempt = await take(db, failureBuckets('otp', address, request));
    const user = await findUserByEmail(db, address);
    const ok = !!user && user.status === 'active' && (await consumeOtp(db, user.id, 'login', request.body.otp.trim()));
    if (!user || !ok) throw new ApiError(401, 'invalid_otp', INVALID_OTP);
    await attempt.refund();
    const token = await issueToken(db, user.id, 'session');
    return reply.code(202).send({ code: 'otp_verified', data: { user_id: user.id, token } });
  });
}

/** The signed-in session: who it is, and signing out. */
function sessionRoutes(app: Api, ctx: AppContext) {
  app.get('/logout', { preHandler: authenticate(ctx), schema: peopleEndpoints['GET /logout'] }, async (request) => {
    await revokeToken(ctx.db, request.tokenId!);
    await announceSessionsEnded(ctx.db, { t: request.tokenId! });
    return { code: 'logged_out', message: 'Signed out.' };
  });

  app.get('/user', { preHandler: authenticate(ctx), schema: peopleEndpoints['GET /user'] }, async (request) => ({
    data: { user_details: userDetails(currentUser(request)) },
  }));
}

/** Forgot password: a mailed code, then a reset token, then the new password (every session ends). */
function passwordResetRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;
  app.post('/forgot-password', { schema: peopleEndpoints['POST /forgot-password'] }, async (request) => {
    const address = normaliseEmail(request.body.email);
    // Refused per account-and-address and per address, never per account alone (as sign-in).
    await hit(db, [
      [`forgot:pair:${address}|${ip(request)}`, LIMITS.forgotPair],
      [`forgot:address:${ip(request)}`, LIMITS.forgotAddress],
    ]);
    const user = await findUserByEmail(db, address);
    // The answer is the same whether or not the account exists, and whether or not a mail goes out.
    if (user && user.status === 'active') await mailResetCode(ctx, user);
    return { code: 'user_reset_password_token_sent', message: 'If an account exists for this e-mail address, a reset code has been sent to it.' };
  });

  app.post('/forgot-password-verify-otp', { schema: peopleEndpoints['POST /forgot-password-verify-otp'] }, async (request) => {
    const address = normaliseEmail(request.body.email);
    const attempt = await take(db, failureBuckets('otp', address, request));
    const user = await findUserByEmail(db, address);
    const ok = !!user && user.status === 'active' && (await consumeOtp(db, user.id, 'password_reset', request.body.otp.trim()));
    if (!user || !ok) throw new ApiError(401, 'invalid_otp', INVALID_OTP);
    await attempt.refund();
    const resetToken = await issueToken(db, user.id, 'password_reset');
    return { code: 'otp_matched', message: 'Code accepted. Choose a new password.', data: { reset_token: resetToken } };
  });

  app.patch('/reset-password', { schema: peopleEndpoints['PATCH /reset-password'] }, async (request) => {
    const user = await findUserByEmail(db, request.body.email);
    const reset = await checkToken(db, request.body.reset_token, 'password_reset');
    if (!user || !reset || reset.userId !== user.id) {
      throw new ApiError(401, 'invalid_reset_token', 'This password reset has expired. Start again from "Forgot password".');
    }
    const hash = await hashPassword(request.body.password);
    await db.transaction(async (tx) => {
      await setPasswordHash(tx, user.id, hash);
      await revokeAllTokens(tx, user.id);
    });
    await announceSessionsEnded(db, { u: user.id });
    return { code: 'password_reset_success', message: 'Your password has been reset. Sign in with the new password.' };
  });
}

/** Sign-in (password, then one-time code), sign-out, the current user, forgot password. */
export function authRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  signInRoutes(app, ctx);
  sessionRoutes(app, ctx);
  passwordResetRoutes(app, ctx);
}
