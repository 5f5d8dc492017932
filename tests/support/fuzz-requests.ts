// The requests of the fuzz test (item 16), endpoint by endpoint, built from the parts in fuzz-inputs.ts.
import fc from "fast-check";
import {
  combine,
  csrfHeader,
  type FuzzRequest,
  jsonBody,
  jsonContentType,
  malformedContentType,
  noiseHeaders,
  oddText,
  type Part,
  part,
  sessionCookie,
  siteHeaders,
  type Validity,
} from "#tests/support/fuzz-inputs.ts";

const COOKIE = "__Host-portal-session";

/** A list of words written as one string. */
const words = (text: string) => text.split(" ");

/** The cookie values of the test's real sessions, by who holds them: alice (signed in), vince (pending), anonymous. */
export type Sessions = Record<string, string>;

/** A path segment: route words, traversal tricks, bad escapes, long and random ones. */
export const segment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...words(
        "client vendor uspto uscis home vip dashboard invoice entry docs bank-holidays users admin mfa login register tax-bridge videos codes pdfs api assets",
      ),
      "",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...words(".. . %2e%2e %2F %5C %00 %ZZ % %C0%AF %E2%80%AE ~ * : @ ;x index.html %252e%252e %u002e"),
    ),
  },
  { weight: 2, arbitrary: oddText.map((text) => encodeURIComponent(text)) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 3_000 }).map((n) => "a".repeat(n)) },
);

export const path = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.boolean())
  .map(([segments, doubled]) => `/${segments.join(doubled ? "//" : "/")}`.replace(/^\/\/+/, "/"));

/** A query string: page parameters, arrays, prototype keys, bad escapes. */
export const query = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom("activeSite", "uuid", "type", "next", "pathname", "__proto__[x]", "uuid[]", "a[b][c]"),
          fc.string({ maxLength: 8 }),
        ),
        fc.oneof(fc.constantFrom("VENDOR", "CLIENT", "Vendor", "//evil.example", "%ZZ", "%00", ""), oddText),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map(
      (pairs) =>
        `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith("%") ? v : encodeURIComponent(v)}`).join("&")}`,
    ),
);

export type Needs = "anyone" | "pending" | "signed-in";
const holder: Record<Needs, string | undefined> = { anyone: undefined, pending: "vince", "signed-in": "alice" };

/** The request's headers with its cookie header, when it has one. */
export const withCookie = (headers: Record<string, string>, cookie: { header: string }): Record<string, string> =>
  cookie.header ? { ...headers, cookie: cookie.header } : headers;

export const fixed = (value: string, validity: Validity = "valid") => fc.constant<Part>({ value, validity });
export const siteOf = (valid: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fixed(valid) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("client", "vendor", "CLIENT", "..", "%2e%2e", "x", "")
        .filter((s) => s !== valid)
        .map((value) => ({ value, validity: "invalid" as Validity })),
    },
  );
export const code = fc.oneof(
  { weight: 5, arbitrary: fc.stringMatching(/^\d{1,8}$/).map((value): Part => ({ value, validity: "valid" })) },
  {
    weight: 2,
    arbitrary: fc
      .string({ minLength: 1, maxLength: 8 })
      .map((s): Part => ({ value: encodeURIComponent(s), validity: "either" })),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(segment, fc.stringMatching(/^\d{9,20}$/)).map((value): Part => ({ value, validity: "either" })),
  },
);
export const uuidQuery = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .string({ minLength: 1, maxLength: 60 })
      .map((s): Part => ({ value: `?uuid=${encodeURIComponent(s)}`, validity: "valid" })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        "",
        "?uuid=",
        `?uuid=${"u".repeat(129)}`,
        "?uuid=a&uuid=b",
        "?uuid=a&next=//evil.example",
        "?uuid[]=a",
        "?__proto__[uuid]=a",
      )
      .map((value): Part => ({ value, validity: "invalid" })),
  },
  { weight: 1, arbitrary: query.map((value): Part => ({ value, validity: "either" })) },
);

/** A body's Content-Length: mostly the true one, sometimes wrong, negative, huge or not a number. */
const bodyLength = fc.oneof(
  { weight: 12, arbitrary: fc.constant(part(undefined, "valid")) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("0", "1", "-1", "abc", "99999", "1e3", " 5", "5, 5", "4097")
      .map((value) => part(value, "either")),
  },
);

/** One API operation: its path parts, its body schema (if any), and who may call it. */
export function api(
  sessions: Sessions,
  parts: fc.Arbitrary<Part>[],
  needs: Needs,
  body?: { fields: Record<string, [number, number]>; invalidWeight?: number },
): fc.Arbitrary<FuzzRequest> {
  const payload = body
    ? fc.tuple(jsonBody(body.fields, body.invalidWeight), jsonContentType)
    : fc.oneof(
        {
          weight: 8,
          arbitrary: fc.constant<[Part, Part]>([
            { value: undefined, validity: "valid" },
            { value: undefined, validity: "valid" },
          ]),
        },
        {
          weight: 1,
          arbitrary: fc.constant<[Part, Part]>([
            { value: "{not json", validity: "invalid" },
            { value: "application/json", validity: "valid" },
          ]),
        },
        {
          weight: 1,
          arbitrary: oddText.map((t): [Part, Part] => [
            { value: t, validity: "either" },
            { value: "text/plain", validity: "either" },
          ]),
        },
        {
          weight: 1,
          arbitrary: malformedContentType.map((t): [Part, Part] => [
            { value: "{}", validity: "either" },
            { value: t, validity: "invalid" },
          ]),
        },
      );
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant({ value: "POST" as FuzzRequest["method"], validity: "valid" as Validity }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<FuzzRequest["method"]>("GET", "PUT", "DELETE", "PATCH", "OPTIONS")
        .map((value) => ({ value, validity: "invalid" as Validity })),
    },
  );
  return fc
    .record({
      pieces: fc.tuple(...parts),
      payload,
      method,
      csrf: csrfHeader,
      site: siteHeaders,
      noise: noiseHeaders,
      cookie: sessionCookie(sessions, COOKIE),
      length: bodyLength,
    })
    .map(({ pieces, payload: [bodyPart, type], method: m, csrf, site, noise, cookie, length }) => {
      // A "broken" cookie may still be the session: base64 forgives a dropped `=`, so it may go either way.
      const identity: Validity =
        holder[needs] === undefined || cookie.name === holder[needs]
          ? "valid"
          : cookie.name === "broken"
            ? "either"
            : "invalid";
      const withBody = bodyPart.value !== undefined && m.value !== "GET";
      const headers: Record<string, string> = { ...noise, ...site.headers };
      if (csrf.value !== undefined) headers["x-portal-request"] = csrf.value;
      if (cookie.header) headers.cookie = cookie.header;
      if (withBody && type.value) headers["content-type"] = type.value;
      if (withBody && length.value !== undefined) headers["content-length"] = length.value;
      return {
        method: m.value,
        url: pieces.map((piece) => piece.value ?? "").join(""),
        headers,
        ...(withBody ? { payload: bodyPart.value } : {}),
        validity: combine(
          m.validity,
          csrf.validity,
          site.validity,
          identity,
          ...pieces.map((p) => p.validity),
          // A Content-Length of 0 sends no body, so the body and its type drawn for it decide nothing.
          ...(!withBody
            ? []
            : length.value === "0"
              ? ["either" as const]
              : [bodyPart.validity, type.validity, length.validity]),
        ),
      };
    });
}

/** Any other path or method under /api: never a route, so never anything but 4xx. */
export const otherApi = (sessions: Sessions): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom<FuzzRequest["method"]>("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
      path,
      q: query,
      cookie: sessionCookie(sessions, COOKIE),
    })
    .map(({ method, path: p, q, cookie }) => ({
      method,
      url: `/api${p}${q}`,
      headers: withCookie({ "x-portal-request": "1" }, cookie),
      // A `..` segment is resolved by the injector before routing (a real HTTP request keeps it: item 5).
      validity: (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(p) ? "either" : "invalid") as Validity,
    }));

/** Documents by odd names, with odd queries, headers and cookies. */
export const pdfs = (sessions: Sessions): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom<FuzzRequest["method"]>("GET", "GET", "GET", "HEAD", "POST"),
      name: fc.oneof(
        fc.constantFrom(
          ...words(
            "BankHolidays.pdf ExpiringInvoicesPolicy.pdf VendorLetter.pdf bankholidays.pdf BankHolidays.PDF ..%2F..%2Fetc%2Fpasswd %2e%2e BankHolidays.pdf%00.txt",
          ),
        ),
        segment,
      ),
      q: query,
      noise: noiseHeaders,
      cookie: sessionCookie(sessions, COOKIE),
    })
    .map(({ method, name, q, noise, cookie }) => ({
      method,
      url: `/pdfs/${name}${q}`,
      headers: withCookie(noise, cookie),
      validity: "either" as Validity,
    }));

/** Pages: odd paths, queries, headers and cookies. */
export const pages = (sessions: Sessions): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom<FuzzRequest["method"]>("GET", "GET", "GET", "GET", "HEAD", "POST"),
      path,
      q: query,
      noise: noiseHeaders,
      cookie: sessionCookie(sessions, COOKIE),
    })
    .map(({ method, path: p, q, noise, cookie }) => ({
      method,
      url: `${p}${q}`,
      headers: withCookie(noise, cookie),
      validity: "either" as Validity,
    }));

/** Health, assets and the sandbox mailbox. */
export const misc = (sessions: Sessions): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      target: fc.oneof(
        fc.constantFrom("/healthz", "/readyz", "/sandbox/mail"),
        path.map((p) => `/assets${p}`),
      ),
      method: fc.constantFrom<FuzzRequest["method"]>("GET", "GET", "HEAD", "POST", "DELETE"),
      q: query,
      cookie: sessionCookie(sessions, COOKIE),
    })
    .map(({ target, method, q, cookie }) => ({
      method,
      url: `${target}${q}`,
      headers: withCookie({}, cookie),
      validity: "either" as Validity,
    }));
