// The fuzz test's requests for /session/* (item 16): sign out, "Stay signed in" and the idle check, with hostile
// `return` targets in their query or body (SECURITY.md's B13: doubled, arrays, objects, huge, encoded).
import fc from "fast-check";
import type { FuzzRequest, Part } from "#tests/support/fuzz-inputs.ts";
import { combine, noiseHeaders, oddText, part, sessionCookie, siteHeaders } from "#tests/support/fuzz-inputs.ts";
import { type Sessions, withCookie } from "#tests/support/fuzz-requests.ts";

const COOKIE = "__Host-portal-session";

/** A `return=` target: paths of this site, and every way out of it a browser would follow. */
export const returnTarget = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom("/client/home", "/client/inbox", "/vendor/home", "/client/home?x=1#top", "/", ""),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "//evil.example",
      "///evil.example",
      "https://evil.example",
      "http:evil.example",
      "/\\evil.example",
      "\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/%2F%2Fevil.example",
      "%2F%2Fevil.example",
      "/..//evil.example",
      "/client/../..//evil.example",
      "/./%2e%2e//evil.example",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "/client/home\r\nSet-Cookie: x=1",
      "/\u0000//evil.example",
      "/\u3002/evil.example",
      "/%E3%80%82evil.example",
      " //evil.example",
    ),
  },
  { weight: 2, arbitrary: fc.webUrl() },
  { weight: 2, arbitrary: oddText },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }).map((text) => `/${text}`) },
  { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 20_000 }).map((n) => `/${"a".repeat(n)}`) },
);

/** A JSON value that is not one string: what `return` must never be taken as. */
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(returnTarget, { minLength: 0, maxLength: 3 }),
  fc.record({ toString: fc.constant("/client/home") }),
  fc.object({ maxDepth: 1 }),
);

/** `return` in a query string: once, twice, as an array or object, prototype keys, beside other keys, bad escapes. */
const returnQuery = fc.oneof(
  { weight: 1, arbitrary: fc.constant(part("", "valid")) },
  {
    weight: 3,
    arbitrary: returnTarget.map((target) =>
      part(`?return=${encodeURIComponent(target)}`, target.length > 2048 ? "invalid" : "either"),
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(returnTarget, returnTarget)
      .map(([a, b]) => part(`?return=${encodeURIComponent(a)}&return=${encodeURIComponent(b)}`, "invalid")),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom("return[]", "return[0]", "return[a]", "__proto__[return]", "constructor", "next", "Return"),
        returnTarget,
      )
      .map(([key, target]) => part(`?${encodeURIComponent(key)}=${encodeURIComponent(target)}`, "invalid")),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("?return=%ZZ", "?return=%", "?return=%00", "?return", "?=&&", `?return=${"%2F".repeat(2000)}`)
      .map((value) => part(value, "either")),
  },
);

/** A body for `return`: a form or JSON, the field once, twice, not a string, huge, or broken. */
const returnBody = fc.oneof(
  { weight: 1, arbitrary: fc.constant<[Part, string | undefined]>([part(undefined, "valid"), undefined]) },
  {
    weight: 3,
    arbitrary: returnTarget.map((target): [Part, string] => [
      part(`return=${encodeURIComponent(target)}`, target.length > 2048 ? "invalid" : "either"),
      "application/x-www-form-urlencoded",
    ]),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(returnTarget, returnTarget)
      .map(([a, b]): [Part, string] => [
        part(`return=${encodeURIComponent(a)}&return=${encodeURIComponent(b)}`, "invalid"),
        "application/x-www-form-urlencoded",
      ]),
  },
  {
    weight: 2,
    arbitrary: returnTarget.map((target): [Part, string] => [
      part(JSON.stringify({ return: target }), target.length > 2048 ? "invalid" : "either"),
      "application/json",
    ]),
  },
  {
    weight: 3,
    arbitrary: notAString.map((value): [Part, string] => [
      part(JSON.stringify({ return: value }), "invalid"),
      "application/json",
    ]),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(returnTarget, returnTarget)
      .map(([a, b]): [Part, string] => [
        part(`{"return":${JSON.stringify(a)},"return":${JSON.stringify(b)}}`, "either"),
        "application/json",
      ]),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<[string, string]>(
        ["{x", "application/json"],
        ['"/client/home"', "application/json"],
        ['["/client/home"]', "application/json"],
        ["null", "application/json"],
        ['{"__proto__":{"return":"//evil.example"}}', "application/json"],
        ["return[]=%2F%2Fevil.example", "application/x-www-form-urlencoded"],
        ["return=%ZZ", "application/x-www-form-urlencoded"],
        ["/client/home", "text/plain"],
        [`return=${"a".repeat(5_000)}`, "application/x-www-form-urlencoded"],
        [JSON.stringify({ return: `/${"a".repeat(20_000)}` }), "application/json"],
      )
      .map(([body, type]): [Part, string] => [part(body, "either"), type]),
  },
);

/** A route of `/session/*`. */
export type SessionRoute = "logout" | "stay" | "idle";

/**
 * `/session/*`: sign out, "Stay signed in" or the idle check, with hostile `return` targets in its query or body, odd
 * origins, headers, cookies and methods. Sign out carries only the anonymous session, so alice stays signed in.
 */
export const sessionRoute = (sessions: Sessions, route: SessionRoute): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(part(route === "idle" ? "GET" : "POST", "either")) },
        { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "HEAD").map((m) => part(m, "either")) },
      ),
      query: returnQuery,
      body: returnBody,
      site: siteHeaders,
      noise: noiseHeaders,
      cookie: sessionCookie(route === "logout" ? { anonymous: sessions.anonymous ?? "" } : sessions, COOKIE),
    })
    .map(({ method, query: q, body: [bodyPart, type], site, noise, cookie }): FuzzRequest => {
      const verb = method.value as FuzzRequest["method"];
      const own = verb === (route === "idle" ? "GET" : "POST");
      const withBody = bodyPart.value !== undefined && verb !== "GET" && verb !== "HEAD";
      const headers = withCookie(
        { ...noise, ...(verb === "GET" ? {} : site.headers), ...(withBody && type ? { "content-type": type } : {}) },
        cookie,
      );
      // The idle check reads `return` from its query; "Stay signed in" from its body; sign out reads neither.
      const input = route === "idle" ? q.validity : route === "stay" && withBody ? bodyPart.validity : "either";
      return {
        method: verb,
        url: `/session/${route}${q.value ?? ""}`,
        headers,
        ...(withBody ? { payload: bodyPart.value } : {}),
        validity: own ? combine(verb === "GET" ? "valid" : site.validity, input) : "either",
      };
    });
