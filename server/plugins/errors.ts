// One error handler: clear 4xx answers in requirements 8's shapes, and never internals for a 5xx.
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { securityHeaderLines, writeSecurityHeaders } from "#server/plugins/security-headers.ts";
import { serverTexts } from "#server/texts.ts";
import { errorTexts } from "#web/texts/errors.ts";

/** requirements 8's shape of a refusal: what it says, and the code the browser words it by when the portal gives one. */
export const problem = (detail: string, code?: string): { detail: string; code?: string } =>
  code === undefined ? { detail } : { detail, code };

/**
 * A refusal of the portal's own, thrown (or passed to a hook's `done`) wherever it is decided: the error handler below
 * is its one writer, in requirements 8's shape, with the headers it names.
 */
export class Refusal extends Error {
  constructor(
    readonly statusCode: number,
    detail: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
    /** The answer's body, when it is not the refusal's words (a refused input names its field). */
    private readonly answer?: object,
  ) {
    super(detail);
  }

  get body(): object {
    return this.answer ?? problem(this.message, this.code);
  }
}

/** The portal's own refusal of a request: marked by its code, so the browser shows section 8's "Action Failed". */
export const invalidRequest = (what: string) => ({
  code: serverTexts.invalidRequest.code,
  description: `${serverTexts.invalidRequest.message}: ${what}`,
});

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Refusal, request, reply) => {
    if (error instanceof Refusal) return reply.code(error.statusCode).headers(error.headers).send(error.body);
    const status = error.statusCode ?? 500;
    if (error.validation) {
      // Named down to the field (`params/code`), so the refusal says which part of the request was wrong.
      const first = error.validation[0];
      const what = `${error.validationContext ?? "input"}${first?.instancePath ?? ""} ${first?.message ?? "is not valid"}`;
      return reply.code(400).send(invalidRequest(what));
    }
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.code(500).send({});
    }
    if (status === 400) return reply.code(400).send(invalidRequest(error.message));
    return reply.code(status).send(problem(status === 413 ? serverTexts.requestTooLarge.message : error.message));
  });
  app.setNotFoundHandler((request) => {
    throw new Refusal(
      404,
      request.url.startsWith("/api/") ? errorTexts.endpointNotFound : serverTexts.notFound.message,
    );
  });
}

/** Fastify's own refusals before routing (a malformed or over-long URL): section 8's shape, the URL not echoed. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  writeSecurityHeaders(request.raw, reply.raw);
  if (error.statusCode === 414) void reply.code(414).send(problem(serverTexts.addressTooLong.message));
  else void reply.code(400).send(invalidRequest(serverTexts.addressInvalid.message));
}

/** Node's refusals before a request exists, by the code Node gives them: the status and what the answer says. */
const unreadable: [number, object] = [400, invalidRequest(serverTexts.requestUnreadable.message)];
const socketRefusals: Record<string, [number, object]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, problem(serverTexts.requestTooSlow.message, serverTexts.requestTooSlow.code)],
  HPE_HEADER_OVERFLOW: [431, problem(serverTexts.headersTooLarge.message, serverTexts.headersTooLarge.code)],
};

/**
 * Fastify's `clientErrorHandler`: a request Node refuses on the socket (unreadable, its headers or body too slow or too
 * large) is answered as every other answer, section 8's shape with the security headers, and the socket closed.
 */
export function clientErrors(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, answer] = socketRefusals[error.code ?? ""] ?? unreadable;
  const body = JSON.stringify(answer);
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${securityHeaderLines}cache-control: no-store\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}

/**
 * The server's `checkExpectation`: an `Expect` other than 100-continue, which Node would answer with a bare 417, is
 * answered as every other answer, section 8's shape with the security headers, and the socket closed (its body unread).
 */
export function expectationFailed(request: IncomingMessage, response: ServerResponse): void {
  writeSecurityHeaders(request, response);
  const body = JSON.stringify(problem(serverTexts.expectationFailed.message, serverTexts.expectationFailed.code));
  response
    .writeHead(417, {
      "cache-control": "no-store",
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    })
    .end(body);
}
