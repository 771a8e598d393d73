import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { peopleEndpoints } from '../../contract/endpoints/people';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { hashPassword } from './passwords';
import { findUserByEmail, normaliseEmail } from './users';
import { insertOrganisation, insertPendingPhysician } from './repository';
import { COUNTRIES, findCountry } from '../countries';
import { hit, LIMITS } from '../services/rate-limit';

/** The one answer of POST /signup, whether or not the address already had an account. */
const ACCOUNT_CREATED = { code: 'account_created', message: 'Account successfully created' } as const;

/** The country list and signup. */
export function accountRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const { db, mailer } = ctx;

  app.get('/countries', { schema: peopleEndpoints['GET /countries'] }, async () => ({ data: { countries: [...COUNTRIES] } }));

  app.post(
    '/signup',
    { schema: peopleEndpoints['POST /signup'] },
    async (request, reply) => {
      const body = request.body;
      await hit(db, [[`signup:address:${request.ip}`, LIMITS.signupAddress]]);
      const country = findCountry(body.country);
      if (!country) throw new ApiError(400, 'validation_failed', `Unknown country "${body.country}".`);
      const address = normaliseEmail(body.email);
      const existing = await findUserByEmail(db, address);
      // Hashed either way, so the answer's timing does not tell whether the account exists.
      const hash = await hashPassword(body.password);
      if (existing) {
        // Same answer as a new account; only the address's owner learns, by mail, that it is taken.
        await mailer.send({
          to: existing.email,
          subject: 'Someone tried to register with your e-mail address',
          text: `Dear ${existing.first_name},\n\nsomeone tried to create a Nocturne account with this e-mail address, which already has one. If it was you, sign in, or use "Forgot password" to set a new password. If it was not you, you can ignore this message; nothing was changed.`,
        });
        return reply.code(201).send(ACCOUNT_CREATED);
      }
      await db.transaction(async (tx) => {
        const orgName = body.organisation_name?.trim();
        const organisationId = orgName ? await insertOrganisation(tx, orgName) : null;
        // New physicians wait for the clinic to verify them before they can sign in.
        await insertPendingPhysician(tx, { email: address, passwordHash: hash, firstName: body.first_name.trim(), lastName: body.last_name.trim(), country: country.name, organisationId });
      });
      await mailer.send({
        to: address,
        subject: 'Welcome to Nocturne',
        text: `Dear ${body.first_name},\n\nthank you for registering with Nocturne. We will verify your account and contact you soon; you can sign in once it is approved.`,
      });
      return reply.code(201).send(ACCOUNT_CREATED);
    },
  );
}
