// One error handler: clear 4xx answers in SPEC.md section 8's shapes, and never internals for a 5xx.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorTexts } from "#web/texts/errors.ts";

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error.validation) {
      return reply.code(400).send({
        description: `Invalid request: ${error.validationContext ?? "input"} ${error.validation[0]?.message ?? "is not valid"}`,
      });
    }
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.code(500).send({});
    }
    return reply.code(status).send({ detail: status === 413 ? "The request is too large." : error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    const api = request.url.startsWith("/api/");
    return reply.code(404).send({ detail: api ? errorTexts.endpointNotFound : "Not Found" });
  });
}

/** Fastify's own refusals before routing (a malformed or over-long URL): section 8's shape, the URL not echoed. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode === 414 ? 414 : 400;
  void reply.code(status).send({ detail: status === 414 ? "The address is too long." : "The address is not valid." });
}
