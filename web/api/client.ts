// The browser's typed client of the upstream API, reached through the portal's /api, with SPEC.md section 8 applied once.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "#openapi/schema.d.ts";
import { answerMessage } from "#web/api/answer.ts";
import { CSRF_HEADER } from "#web/api/held.ts";

/**
 * Every non-OK answer reaches the caller as `error.detail` holding the section 8 message; a 401
 * ends the call with no value (no data, no error) once `onExpired` has sent the user away.
 */
export function answerHandling(onExpired: () => void): Middleware {
  return {
    async onResponse({ response }) {
      if (response.ok) return undefined;
      if (response.status === 401) {
        onExpired();
        return new Response(null, { status: 204 });
      }
      const text = await response.text().catch(() => "");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return Response.json({ detail: answerMessage(response.status, body) }, { status: response.status });
    },
    onError({ error }) {
      const message = error instanceof Error ? error.message : String(error);
      return Response.json({ detail: message }, { status: 503 });
    },
  };
}

export function createApi(baseUrl: string, fetchImpl?: typeof fetch, onExpired = () => window.location.assign("/")) {
  const client = createClient<paths>({
    baseUrl,
    headers: { [CSRF_HEADER]: "1" },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  client.use(answerHandling(onExpired));
  return client;
}

/** The islands' client: same-origin `/api`, where the portal forwards to the upstream. */
export const api = createApi("/api");
