// The browser's typed client of the upstream API, reached through the portal's /api, with requirements 8 applied once.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "#openapi/schema.ts";
import { answerCode, failedCallText } from "#web/api/answer.ts";
import { CSRF_HEADER, TIME_ZONE_HEADER } from "#web/protocol/headers.ts";
import { answerCodes, errorTexts } from "#web/texts/errors.ts";

/** What a failed call's `error` holds: section 8's message, and the portal's `code` when it set one. */
export type Failure = { detail: string; code?: string };

/**
 * 401 codes the island explains itself, so the browser stays on the page (no redirect): a sign-in step that ended, and
 * a call made without a session that the upstream refused (nothing to leave; the form keeps what was typed).
 */
const explainedExpiries: readonly string[] = [answerCodes.mfaAttemptsExhausted, answerCodes.refusedUnsigned];

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every non-OK answer reaches the caller as `error.detail` holding the section 8 message (and `error.code` when the
 * portal set one); a 401 ends the call with no value (no data, no error) once `onExpired` has sent the user away,
 * unless its code is one the island explains on the page. A request that got no answer at all (the network, a
 * closed tab's server) fails with section 8's "Action Failed" and the outage sentence, never the browser's own "Failed
 * to fetch".
 */
export function answerHandling(onExpired: () => void): Middleware {
  return {
    async onResponse({ response }) {
      if (response.ok) return undefined;
      const body = await bodyOf(response);
      const code = answerCode(body);
      if (response.status === 401 && !(code && explainedExpiries.includes(code))) {
        onExpired();
        return new Response(null, { status: 204 });
      }
      const failure: Failure = { detail: failedCallText(response.status, body), ...(code ? { code } : {}) };
      return Response.json(failure, { status: response.status });
    },
    // No answer at all is worded as an empty 503: openapi-fetch hands this answer to `onResponse` above.
    onError() {
      return new Response(null, { status: 503 });
    },
  };
}

export function createApi(baseUrl: string, fetchImpl?: typeof fetch, onExpired = () => window.location.assign("/")) {
  const client = createClient<paths>({
    baseUrl,
    headers: { [CSRF_HEADER]: "1", [TIME_ZONE_HEADER]: Intl.DateTimeFormat().resolvedOptions().timeZone },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  client.use(answerHandling(onExpired));
  return client;
}

/** The islands' client: same-origin `/api`, where the portal forwards to the upstream. */
export const api = createApi("/api");

/**
 * The section 8 message of a failed call, read from its typed error: `answerHandling` made it a `Failure`, whatever the
 * upstream's error shape the generated types describe.
 */
export const failureText = (error: unknown): string => {
  const detail = error && typeof error === "object" ? (error as Partial<Failure>).detail : undefined;
  return typeof detail === "string" && detail ? detail : errorTexts.actionFailed;
};

/** The portal's `code` of a failed call, read from its typed error (the generated types do not name the field). */
export const failureCode = (error: unknown): string | undefined =>
  error && typeof error === "object" ? answerCode(error) : undefined;
