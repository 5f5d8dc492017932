// How the fake upstream (harness/fake-upstream.ts) words its answers: in the description's own dialect, as the sandbox
// does, or as a problem-details upstream would (RFC 9457 errors with arrays of texts, a failed sign-in with a message
// of its own, extra fields in successes, empty successes, a verdict labelled text/plain), or as a plain-text upstream
// (successes in words, JSON behind a byte-order mark, nulls for "none", a numeric username). The scenarios are the same;
// only the wording differs, as it does between an upstream written here and one written anywhere else.
import type { ServerResponse } from "node:http";
import type { UserInfo } from "#web/site.ts";

export type Dialect = "description" | "problem-details" | "plain-text";
export const dialects = ["description", "problem-details", "plain-text"] as const satisfies readonly Dialect[];

/** An error answer, in requirements 8's fields: each dialect words it its own way. */
export type Refusal = { status: number; detail?: string; description?: string; errors?: Record<string, string> };

/** The answers the fake upstream gives, each worded by a dialect. */
export type Speaker = {
  /** A sign-in answer: a token and its message, or no token (the credentials were not accepted). */
  login(response: ServerResponse, token: string | undefined, message: string): void;
  /** A link sign-in answer: a token, or none (the link was not accepted). */
  link(response: ServerResponse, token: string | undefined): void;
  generated(response: ServerResponse): void;
  verdict(response: ServerResponse, text: string): void;
  permissions(response: ServerResponse, info: Omit<UserInfo, "loaded">): void;
  /** A success whose body requirements 7.2 do not read: reset, password test and change, a visit. */
  accepted(response: ServerResponse, call: "reset" | "test" | "change" | "track"): void;
  refused(response: ServerResponse, refusal: Refusal): void;
};

function send(response: ServerResponse, status: number, body: unknown, type?: string): void {
  response.writeHead(status, type ? { "content-type": type } : {}).end(JSON.stringify(body));
}
const json = "application/json";

/** openapi/portal.yaml's examples, word for word: what the sandbox answers. */
const description: Speaker = {
  login: (response, token, message) => send(response, 200, token ? { token, message } : {}, json),
  link: (response, token) => send(response, 200, token ? { token } : {}, json),
  generated: (response) => send(response, 200, { ok: true }, json),
  verdict: (response, text) => send(response, 200, [{ text }], json),
  permissions: (response, info) => send(response, 200, { loaded: true, ...info }, json),
  accepted: (response) => send(response, 200, { ok: true }, json),
  refused: (response, { status, ...fields }) => send(response, status, fields, json),
};

/** A problem-details upstream: what ASP.NET, Spring and many others send. */
const problemDetails: Speaker = {
  login: (response, token, message) =>
    send(
      response,
      200,
      token
        ? { token, message, tokenType: "Bearer", expiresIn: 3600, _links: { self: { href: "/auth" } } }
        : { message: "Invalid username or password." },
      "application/json; charset=utf-8",
    ),
  link: (response, token) =>
    send(response, 200, token ? { token, tokenType: "Bearer", expiresIn: 3600 } : { message: "Link expired." }, json),
  generated: (response) => void response.writeHead(204).end(),
  verdict: (response, text) =>
    send(response, 200, [{ text, checkedAt: "2026-01-05T09:00:00Z" }], "text/plain; charset=utf-8"),
  permissions: (response, info) => send(response, 200, { ...info, schemaVersion: 2, _links: {} }, json),
  accepted: (response, call) =>
    call === "reset" || call === "track"
      ? void response.writeHead(204).end()
      : send(response, 200, { succeeded: true, traceId: "00-4bf92f-01" }, json),
  refused: (response, { status, detail, description, errors }) =>
    send(
      response,
      status,
      {
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        title: "One or more validation errors occurred.",
        status,
        ...(detail ? { detail } : {}),
        ...(description ? { description: [description] } : {}),
        ...(errors
          ? { errors: Object.fromEntries(Object.entries(errors).map(([field, text]) => [field, [text]])) }
          : {}),
        traceId: "00-4bf92f-01",
      },
      "application/problem+json",
    ),
};

/** JSON behind a UTF-8 byte-order mark, as some Windows servers write it. */
function sendWithBom(response: ServerResponse, status: number, body: unknown, type = json): void {
  response.writeHead(status, { "content-type": type }).end(`\uFEFF${JSON.stringify(body)}`);
}
function sendText(response: ServerResponse, text: string): void {
  response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(text);
}

/**
 * An upstream that answers what requirements 7.2 reads only the status of in words ("Code sent", "Password changed"),
 * writes its JSON behind a byte-order mark, says "none" with null, and names a link's user by a number.
 */
const plainText: Speaker = {
  login: (response, token, message) =>
    sendWithBom(response, 200, token ? { token, message } : { token: null, message: "Invalid credentials" }),
  link: (response, token) =>
    sendWithBom(response, 200, token ? { token, message: "Success", username: 1042 } : { token: null, message: null }),
  generated: (response) => sendText(response, "Code sent"),
  verdict: (response, text) => sendWithBom(response, 200, [{ text }], "text/plain"),
  permissions: (response, info) => sendWithBom(response, 200, { loaded: true, ...info }),
  accepted: (response, call) =>
    sendText(response, { reset: "Email queued", test: "OK", change: "Password changed", track: "\r\n" }[call]),
  refused: (response, { status, ...fields }) => sendWithBom(response, status, fields),
};

const speakers: Record<Dialect, Speaker> = {
  description,
  "problem-details": problemDetails,
  "plain-text": plainText,
};
export const speakerOf = (dialect: Dialect): Speaker => speakers[dialect];
