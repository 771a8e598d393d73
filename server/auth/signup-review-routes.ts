import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { peopleEndpoints } from '../../contract/endpoints/people';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import { lockApplicant, recentSignups, recordSignupDecision } from './repository';

/** The answer at sign-in for a refused account (spec 1 gives none; docs/decisions/0128-signup-approval.md). */
export const ACCOUNT_REFUSED = 'Your account request was not approved. Contact support if you think this is a mistake.';

/**
 * Signup approval (issue 16 point 3): admins list the accounts waiting since signup and
 * approve or refuse each (with an optional reason). The applicant is mailed either way;
 * who decided and when stays on the account (users.reviewed_by, reviewed_at, review_reason).
 */
export function signupReviewRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const { db, mailer } = ctx;
  const auth = authenticate(ctx);
  const adminOnly = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    if (user.role !== 'admin') throw forbidden('Only admins review signups.');
    return user;
  };

  app.get('/admin/signups', { preHandler: auth, schema: peopleEndpoints['GET /admin/signups'] }, async (request) => {
    adminOnly(request);
    // Everyone waiting, then the latest decisions (their audit: who and when).
    const rows = await recentSignups(db);
    return { data: { signups: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString(), reviewed_at: r.reviewed_at?.toISOString() ?? null })) } };
  });

  app.post(
    '/admin/signups/:id/:decision',
    { preHandler: auth, schema: peopleEndpoints['POST /admin/signups/:id/:decision'] },
    async (request) => {
      const admin = adminOnly(request);
      const approve = request.params.decision === 'approve';
      const reason = request.body?.reason?.trim() ?? '';
      const applicant = await db.transaction(async (tx) => {
        const u = await lockApplicant(tx, request.params.id);
        if (!u) throw notFound('account');
        if (u.status !== 'pending') throw new ApiError(409, 'signup_decided', `This account is no longer waiting (${u.status}).`);
        await recordSignupDecision(tx, u.id, approve ? 'active' : 'refused', admin.id, reason);
        return u;
      });
      await mailer.send(
        approve
          ? {
              to: applicant.email,
              subject: 'Your Nocturne account is active',
              text: `Dear ${applicant.first_name},\n\nyour Nocturne account has been approved. You can sign in now with your e-mail address and password.${reason ? `\n\nNote: ${reason}` : ''}`,
            }
          : {
              to: applicant.email,
              subject: 'Your Nocturne account request',
              text: `Dear ${applicant.first_name},\n\nwe could not approve your Nocturne account request.${reason ? `\n\nReason: ${reason}` : ''}\n\nIf you think this is a mistake, reply to this message.`,
            },
      );
      return { code: approve ? 'signup_approved' : 'signup_refused', message: approve ? 'Account approved.' : 'Account refused.', data: { user_id: applicant.id } };
    },
  );
}
