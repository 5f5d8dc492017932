// What the start says to a person: readable development logs, and one plain line when the port cannot be had.
import type { FastifyServerOptions } from "fastify";
import { loggerOptions } from "#server/plugins/logging.ts";

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined;

/** A request's line reads "request completed GET /login 200 3 ms"; any other line is its message. */
function developmentLine(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? "");
  const method = field(log.req, "method");
  if (typeof method !== "string") return message;
  const status = field(log.res, "statusCode");
  const time = typeof log.responseTime === "number" ? ` ${Math.round(log.responseTime)} ms` : "";
  return `${message} ${method} ${String(field(log.req, "url"))} ${String(status ?? "")}${time}`;
}

/**
 * Development logs through pino-pretty: one coloured line per request. pino-pretty is a devDependency; without it
 * (a pruned tree started in development mode) the logs stay JSON lines.
 */
export async function developmentLogger(level: string): Promise<FastifyServerOptions["logger"]> {
  try {
    const { default: pretty } = await import("pino-pretty");
    const stream = pretty({
      colorize: Boolean(process.stdout.isTTY),
      translateTime: "HH:MM:ss",
      ignore: "pid,hostname,reqId,req,res,responseTime",
      messageFormat: developmentLine,
      singleLine: true,
    });
    return loggerOptions(level, stream);
  } catch {
    return loggerOptions(level);
  }
}

const errorCode = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined;

/** A failed listen as one line a person can act on, or undefined for a failure with no plain reading. */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  switch (errorCode(error)) {
    case "EADDRINUSE":
      return `Port ${port} is in use; set PORT to another port.`;
    case "EACCES":
      return `Port ${port} needs privileges this user does not have; set PORT to a port above 1023.`;
    case "EADDRNOTAVAIL":
      return `${host} is not an address of this machine; set HOST to one that is (127.0.0.1, or 0.0.0.0 for all).`;
    default:
      return undefined;
  }
}
