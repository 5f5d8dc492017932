// Issue 4, items 1 and 3: the session cookie's attributes and caching, tampering and rotation (item 2: cookie-size.test.ts).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, latestCode, signIn } from "#harness/sign-in.ts";
import { deviceCookieName } from "#server/device-cookie.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { setCookies } from "#tests/support/portal-on-fake.ts";

const COOKIE = "__Host-portal-session";
const DEVICE_COOKIE = deviceCookieName(true);
const OLD_KEY = "0".repeat(64);
const NEW_KEY = "1".repeat(64);

/** A cookie's attributes as written, name first: `["__Host-portal-session=…", "Path=/", "HttpOnly", …]`. */
const attributesOf = (setCookie: string) => setCookie.split(";").map((part) => part.trim());

function assertSessionCookie(setCookie: string, where: string) {
  const [pair = "", ...attributes] = attributesOf(setCookie);
  // The session's cookie, or the device cookie a passed sign-in leaves beside it (server/device-cookie.ts).
  assert.ok(
    pair.startsWith(`${COOKIE}=`) || pair.startsWith(`${DEVICE_COOKIE}=`),
    `${where}: the cookie is named ${COOKIE} or ${DEVICE_COOKIE}: ${pair.slice(0, 40)}`,
  );
  for (const required of ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"])
    assert.ok(attributes.includes(required), `${where}: ${required} in ${attributes.join("; ")}`);
  assert.ok(!attributes.some((attribute) => /^domain=/i.test(attribute)), `${where}: no Domain attribute`);
}

describe("session cookie attributes and caching (item 1)", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  it("1. cookie: every Set-Cookie of a sign-in and sign-out is __Host- named, Secure, HttpOnly, SameSite=Strict, Path=/ and has no Domain", async () => {
    const visitor = new PortalClient(portal.app);
    const answers: [string, PortalAnswer][] = [];
    const record = async (what: string, answer: Promise<PortalAnswer>) => answers.push([what, await answer]);
    await record("tax-bridge entry", visitor.get("/tax-bridge/login"));
    await record(
      "login",
      visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: DEMO_PASSWORD }),
    );
    await record("generate", visitor.post("/api/web/client/mfa/generate"));
    const code = await latestCode(portal.sandboxUrl, accounts.alice.email);
    await record("validate", visitor.post(`/api/web/client/mfa/validate/${code}`));
    await record("home", visitor.get("/client/submission/report"));
    await record("sign out", visitor.post("/session/logout"));
    const written = answers.flatMap(([what, answer]) => setCookies(answer).map((cookie) => [what, cookie] as const));
    assert.ok(written.length >= 4, `cookies were written at each step: ${written.map(([what]) => what).join(", ")}`);
    for (const [what, cookie] of written) assertSessionCookie(cookie, what);
  });

  it("1. no-store: pages, documents, redirects and API answers that carry session state are never cached", async () => {
    const visitor = await signIn(portal.app, accounts.victor, portal.code);
    const answers = [
      await visitor.get("/client/home"),
      await visitor.get("/client/batch/upload"),
      await visitor.get("/client/no-such-page"),
      await visitor.get("/"),
      await visitor.get("/mfa"),
      await visitor.post("/api/web/client/password/test", { userId: "victor", password: DEMO_PASSWORD }),
      await new PortalClient(portal.app).post("/api/auth/vendor", { username: "vera", password: "wrong" }),
      await visitor.get("/pdfs/BankHolidays.pdf"),
      await visitor.get("/session/idle?return=%2Fclient%2Fhome"),
      await visitor.post("/session/stay", { return: "/client/home" }, { accept: "application/json" }),
      await visitor.post("/session/logout"),
      await visitor.get("/client/home"),
    ];
    for (const answer of answers) {
      assert.match(String(answer.headers["cache-control"]), /no-store/, `${answer.status} ${answer.text.slice(0, 60)}`);
    }
  });

  it("1. behind a TLS-terminating proxy (TRUST_PROXY=true) the proxy's scheme and host count, and the client address is the one the proxy saw, not one the browser forged", async () => {
    const proxied = await startPortalInProcess({
      env: { TRUST_PROXY: "true", RATE_LIMIT_IP_PER_MINUTE: "2" },
      listen: false,
    });
    try {
      const attempt = (forged: string, client: string, password = "a wrong password") =>
        proxied.app.inject({
          method: "POST",
          url: "/api/auth/vendor",
          remoteAddress: "10.0.0.2",
          headers: {
            "content-type": "application/json",
            "x-portal-request": "1",
            host: "10.0.0.5:3000",
            origin: "https://portal.example",
            "sec-fetch-site": "same-origin",
            "x-forwarded-proto": "https",
            "x-forwarded-host": "portal.example",
            "x-forwarded-for": `${forged}, ${client}`,
          },
          payload: { username: "vera", password },
        });
      // Failed sign-ins count against the address: a success first, then two failures use up the limit of 2.
      const first = await attempt("198.51.100.1", "203.0.113.7", DEMO_PASSWORD);
      assert.equal(first.statusCode, 200, "the proxy's Origin/Host pair passes the same-origin check");
      assertSessionCookie(setCookies(first)[0] ?? "", "proxied login");
      assert.equal((await attempt("198.51.100.2", "203.0.113.7")).statusCode, 200);
      assert.equal((await attempt("198.51.100.4", "203.0.113.7")).statusCode, 200);
      assert.equal(
        (await attempt("198.51.100.3", "203.0.113.7")).statusCode,
        429,
        "a forged X-Forwarded-For entry does not make a new client",
      );
      assert.equal(
        (await attempt("198.51.100.3", "203.0.113.8")).statusCode,
        200,
        "another real client is not throttled",
      );
    } finally {
      await proxied.close();
    }
    const direct = await startPortalInProcess({ env: { RATE_LIMIT_IP_PER_MINUTE: "1" }, listen: false });
    try {
      const attempt = (forged: string) =>
        direct.app.inject({
          method: "POST",
          url: "/api/auth/vendor",
          headers: { "content-type": "application/json", "x-portal-request": "1", "x-forwarded-for": forged },
          payload: { username: "vera", password: "wrong" },
        });
      assert.equal((await attempt("203.0.113.1")).statusCode, 200);
      assert.equal((await attempt("203.0.113.2")).statusCode, 429, "without TRUST_PROXY, X-Forwarded-For is ignored");
    } finally {
      await direct.close();
    }
  });
});

describe("tampering and key rotation (item 3)", () => {
  let portal: RunningPortal;
  let value: string;
  before(async () => {
    portal = await startPortalInProcess({ env: { SESSION_KEY: OLD_KEY }, listen: false });
    const visitor = await signIn(portal.app, accounts.alice, portal.code);
    value = visitor.cookies.get(COOKIE) ?? "";
  });
  after(() => portal.close());

  const withCookie = (app: RunningPortal["app"], cookieValue: string, url: string, method: "GET" | "POST" = "GET") =>
    app.inject({
      method,
      url,
      headers: { cookie: `${COOKIE}=${encodeURIComponent(cookieValue)}`, "x-portal-request": "1" },
      ...(method === "POST" ? { payload: { userId: "alice", password: DEMO_PASSWORD } } : {}),
    });

  it("3. tampering: a flipped byte, a truncated cookie, another key's cookie or garbage is no session, never a 500", async () => {
    assert.equal((await withCookie(portal.app, value, "/client/home")).statusCode, 200, "the untouched cookie works");
    // @fastify/secure-session's value: the ciphertext and its nonce, base64, joined by ";".
    const [cipher = "", iv = ""] = value.split(";");
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
    const other = await startPortalInProcess({
      env: { SESSION_KEY: NEW_KEY, UPSTREAM_URL: portal.sandboxUrl },
      listen: false,
    });
    const foreign = await signIn(other.app, accounts.alice, portal.code)
      .then((visitor) => visitor.cookies.get(COOKIE) ?? "")
      .finally(() => other.close());
    const tampered: Record<string, string> = {
      "a flipped byte in the ciphertext": `${flip(cipher, 40)};${iv}`,
      "a flipped byte in the IV": `${cipher};${flip(iv, 5)}`,
      "the last byte flipped": `${flip(cipher, cipher.length - 3)};${iv}`,
      "truncated to half": value.slice(0, value.length / 2),
      "the IV cut short": `${cipher};${iv.slice(0, 10)}`,
      "no IV": cipher,
      "another key's cookie": foreign,
      empty: "",
      garbage: "not-a-session-at-all",
      "bad base64": "@@@@;@@@@",
      "JSON instead of a cipher": '{"auth":{"stage":"signed-in"}}',
      huge: "A".repeat(3900),
    };
    for (const [what, cookie] of Object.entries(tampered)) {
      const page = await withCookie(portal.app, cookie, "/client/home");
      assert.equal(page.statusCode, 302, `${what}: no section page`);
      assert.equal(page.headers.location, "/?return=%2Fclient%2Fhome", what);
      const api = await withCookie(portal.app, cookie, "/api/web/client/password/test", "POST");
      assert.equal(api.statusCode, 401, `${what}: the API sees no session`);
      const login = await withCookie(portal.app, cookie, "/");
      assert.equal(login.statusCode, 200, `${what}: the login page opens`);
    }
    const raw = await portal.app.inject({ url: "/client/home", headers: { cookie: `${COOKIE}=%E0%A4%A; x=%` } });
    assert.equal(raw.statusCode, 302, "malformed percent-encoding is no session");
  });

  it("3. key rotation: a cookie of the previous key is accepted and re-issued under the new one; a removed key signs out", async () => {
    const rotated = await startPortalInProcess({
      env: { SESSION_KEY: `${NEW_KEY},${OLD_KEY}`, UPSTREAM_URL: portal.sandboxUrl },
      listen: false,
    });
    const newOnly = await startPortalInProcess({
      env: { SESSION_KEY: NEW_KEY, UPSTREAM_URL: portal.sandboxUrl },
      listen: false,
    });
    try {
      const health = await withCookie(rotated.app, value, "/healthz");
      assert.equal(health.headers["set-cookie"], undefined, "/healthz never touches the session");
      const login = await withCookie(rotated.app, value, "/vendor/home");
      const reissued = login.cookies.find((cookie) => cookie.name === COOKIE)?.value;
      assert.ok(reissued, "even an answer that does not change the session re-issues it under the new key");
      assert.equal(
        (await withCookie(rotated.app, value, "/client/home")).statusCode,
        200,
        "the old cookie is accepted",
      );
      assert.equal((await withCookie(newOnly.app, reissued, "/client/home")).statusCode, 200, "re-issued: new key");
      const removed = await withCookie(newOnly.app, value, "/client/home");
      assert.equal(removed.statusCode, 302, "once the old key is removed, its cookies are signed out");
      assert.equal(removed.headers.location, "/?return=%2Fclient%2Fhome");
    } finally {
      await rotated.close();
      await newOnly.close();
    }
  });
});
