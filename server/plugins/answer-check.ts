import type { FastifyInstance, FastifySchema } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';

type Responses = Record<string, unknown>;

/** The response schema of `status` among a route's (`200`, else its class `2xx`), or null. */
function schemaFor(schema: FastifySchema | undefined, status: number): Record<string, unknown> | null {
  const responses = schema?.response as Responses | undefined;
  const found = responses?.[status] ?? responses?.[`${String(status)[0]}xx`];
  return found && typeof found === 'object' ? (found as Record<string, unknown>) : null;
}

/** One checker for every app of the process (the test suites build hundreds), each schema compiled once. */
const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const bySchema = new WeakMap<object, ValidateFunction>();

/** The schema's checker: by object after its first answer, by text across apps (each makes its route schemas afresh). */
function validatorOf(schema: Record<string, unknown>): ValidateFunction {
  let validate = bySchema.get(schema);
  if (validate) return validate;
  const text = JSON.stringify(schema);
  validate = compiled.get(text);
  if (!validate) compiled.set(text, (validate = ajv.compile(schema)));
  bySchema.set(schema, validate);
  return validate;
}

/**
 * Checks every JSON answer against its route's response schema before it is serialised (config
 * CHECK_ANSWERS=1, in the tests and development). The serialiser sends only the fields a schema
 * names and writes a null it does not allow as 0 or "", so a schema that drifted from its route
 * would lose or change data silently; here it fails the request, naming the route and the field.
 */
export function checkAnswers(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    const schema = schemaFor(request.routeOptions.schema, reply.statusCode);
    if (!schema || schema.contentMediaType) return payload;
    const validate = validatorOf(schema);
    // As JSON would carry it: dates as strings, undefined fields gone.
    if (!validate(JSON.parse(JSON.stringify(payload)))) {
      throw new Error(`The answer of ${request.method} ${request.routeOptions.url} does not match its schema: ${ajv.errorsText(validate.errors, { dataVar: 'answer' })}`);
    }
    return payload;
  });
}
