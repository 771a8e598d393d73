// Sending an answer kept in the AnswerCache (issue 18 point 4): the trend and the dashboard's
// triage table answer the same way, with the kept JSON, its entity tag (304 when the caller
// has it) and its gzip, made once per kept answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Ajv } from 'ajv';
import type { AnswerCache, KeptAnswer } from './answerCache';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** If-None-Match names the entity tag (or is *). */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * CHECK_ANSWERS for a route that sends JSON text it made (kept or not): the answer check
 * (server/plugins/answer-check.ts) sees only answers the serialiser serialises, never a Buffer.
 * The returned function checks the text against the route's response schema and throws,
 * naming the route and the field, where it does not match.
 */
export function keptJsonCheck(route: string, schema: object): (json: Buffer) => void {
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false });
  const validate = ajv.compile(schema);
  return (json) => {
    if (!validate(JSON.parse(json.toString()))) throw new Error(`The answer of ${route} does not match its schema: ${ajv.errorsText(validate.errors, { dataVar: 'answer' })}`);
  };
}

/** Sends JSON made here and not kept (a Buffer: the route's serialiser does not see it). */
export function sendFresh(reply: FastifyReply, json: Buffer): FastifyReply {
  return reply.type(JSON_TYPE).header('cache-control', 'private, no-cache').send(json);
}

/** Sends the answer kept under key: 304 for a matching If-None-Match, gzip when accepted. */
export async function sendKept(request: FastifyRequest, reply: FastifyReply, answers: AnswerCache, key: string, kept: KeptAnswer): Promise<FastifyReply> {
  reply.header('cache-control', 'private, no-cache').header('etag', kept.etag).header('vary', 'accept-encoding');
  if (ifNoneMatch(request.headers['if-none-match'], kept.etag)) return reply.code(304).send();
  reply.type(JSON_TYPE);
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.header('content-encoding', 'gzip').send(await answers.gzipOf(key, kept));
  return reply.send(kept.json);
}
