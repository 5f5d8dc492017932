// Logger options: JSON lines with the request id; no password, code, token or cookie ever written.
import type { FastifyServerOptions } from "fastify";

/** A path as it may be logged: no query (link-login uuids), no MFA code. */
export const loggablePath = (url: string) => (url.split("?")[0] ?? "").replace(/(\/mfa\/validate\/)[^/]*/, "$1***");

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]', "*.password", "*.token"],
      censor: "[redacted]",
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: loggablePath(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
