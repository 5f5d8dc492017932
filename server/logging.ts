// Logger options: JSON lines with the request id; no password, code, token or cookie ever written.
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";

/** A path as it may be logged: no query (link-login uuids), no MFA code. */
export const loggablePath = (url: string) => (url.split("?")[0] ?? "").replace(/(\/mfa\/validate\/)[^/]*/, "$1***");

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream ? { stream } : {}),
    // The serializers below write no headers at all; this catches a password or token in any other object logged.
    redact: { paths: ["*.password", "*.token"], censor: "[redacted]" },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: loggablePath(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}

/** One line per request, written when its answer has gone (Fastify's own logging writes two: incoming, completed). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
