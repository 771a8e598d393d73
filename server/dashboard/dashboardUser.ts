import type { FastifyRequest } from 'fastify';
import { currentUser } from '../context';
import { forbidden } from '../errors';
import type { UserRow } from '../auth/users';

/** Physicians (and their secondary users) see the dashboard; annotators do not (spec 1 §6). */
export function dashboardUser(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('The dashboard is for physicians.');
  return user;
}
