// A sign-in form posted without its script is answered by the same /api operation the island calls: the row's throttle,
// check and effect (server/api/rules.ts) stay their one owner. The call is made in-process with this request's session,
// address and the portal's CSRF header, and the session it leaves becomes this request's.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "#server/context.ts";
import { sessionCookieName } from "#server/session/plugin.ts";
import { UNAVAILABLE } from "#server/stores/ledger.ts";
import { CSRF_HEADER, TIME_ZONE_HEADER } from "#web/protocol/headers.ts";

/** What /api answered: its status, its JSON body (undefined when empty) and its headers. */
export type ApiAnswer = { status: number; body: unknown; headers: Record<string, unknown> };

/**
 * POSTs `path` under /api as the island would, with this request's session as it stands now. The session the call
 * leaves (a held login, a promotion, an end) replaces this request's: the form's own answer then writes it once.
 */
export async function throughApi(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const app = request.server;
  const cookieName = sessionCookieName(context.config.cookieSecure);
  // The record as this request holds it is the ledger's before the call reads it.
  if (request.record?.changed) app.ledger.write(request.record.id, request.record.value);
  if (request.record) request.record.changed = false;
  const sealed = encodeURIComponent(app.encodeSecureSession(request.session));
  // The browser's other cookies (its device cookie) go along; the session is the one this request holds now.
  const others = (request.headers.cookie ?? "")
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith(`${cookieName}=`));
  const zone = request.headers[TIME_ZONE_HEADER.toLowerCase()];
  const answer = await app.inject({
    method: "POST",
    url: `/api${path}`,
    remoteAddress: request.ip, // the same address's budget as the island's calls
    headers: {
      [CSRF_HEADER]: "1",
      cookie: [...others, `${cookieName}=${sealed}`].join("; "),
      "user-agent": request.headers["user-agent"] ?? "",
      ...(typeof zone === "string" ? { [TIME_ZONE_HEADER]: zone } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  await adoptSession(request, cookieName, answer.cookies);
  // Any other cookie the call set (the device cookie of a passed sign-in) reaches the browser as the island's would.
  for (const cookie of answer.cookies.filter((written) => written.name !== cookieName)) {
    const { name, value, ...options } = cookie;
    reply.setCookie(name, value, options as Parameters<FastifyReply["setCookie"]>[2]);
  }
  const text = answer.body;
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: answer.statusCode, body: parsed, headers: answer.headers };
}

/** The session the call wrote, if it wrote one, becomes this request's (deleted, when the call deleted it). */
async function adoptSession(
  request: FastifyRequest,
  cookieName: string,
  cookies: { name: string; value: string; maxAge?: number; expires?: Date }[],
): Promise<void> {
  const written = cookies.find((cookie) => cookie.name === cookieName);
  if (!written) return;
  const session = request.session;
  if (!written.value || written.maxAge === 0) {
    session.regenerate([]);
    session.delete();
    request.auth = undefined;
    request.record = undefined;
    return;
  }
  const opened = request.server.decodeSecureSession(decodeURIComponent(written.value), request.log);
  session.regenerate([]);
  for (const [key, value] of Object.entries(opened?.data() ?? {})) session.set(key as never, value as never);
  const id = session.get("sid");
  const found = id === undefined ? undefined : await request.server.ledger.read(id);
  const value = found === UNAVAILABLE || found?.ended ? undefined : found;
  request.record = id && value ? { id, value, changed: false } : undefined;
  request.auth = value?.auth;
}
