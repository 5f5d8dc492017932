// Rows 11a and 11b's plain side, in place of server/upstream/upstream-call.ts: openapi-fetch builds each call with the
// platform's `Request`, as it does when given no class of its own, and the transport reads the body back from it.
import type { Call } from "#server/upstream/upstream-call.ts";

export type { Call } from "#server/upstream/upstream-call.ts";

export const CallRequest = globalThis.Request;

export async function callOf(request: Request): Promise<Call> {
  const { url, method, headers, signal } = request;
  return { url, method, headers, signal, body: request.body === null ? undefined : await request.text() };
}
