// SECURITY.md item 12: the security headers of every HTML answer (CSP with a fresh nonce, HSTS, nosniff, referrer policy).
// And the browser's own /favicon.ico request, answered outside the session: it never uses up a page's notice.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { loadConfig } from "#server/config.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { concrete } from "#tests/support/route-paths.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";
import { scaled, timed } from "#tests/support/waiting.ts";
import { routes } from "#web/routes/table.ts";

const ONE_YEAR = 31_536_000;

/** `default-src 'self'; script-src …` → { "default-src": ["'self'"], … } */
function directivesOf(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

/** Checks one HTML answer; answers its nonce (or "" for a page with no script at all). */
function assertHtmlHeaders(answer: PortalAnswer, where: string): string {
  const policy = String(answer.headers["content-security-policy"] ?? "");
  assert.ok(policy, `${where}: a Content-Security-Policy`);
  const csp = directivesOf(policy);
  const scripts = csp.get("script-src") ?? csp.get("default-src") ?? [];
  assert.ok(!scripts.includes("'unsafe-inline'") && !scripts.includes("'unsafe-eval'"), `${where}: ${policy}`);
  const objects = csp.get("object-src") ?? csp.get("default-src");
  assert.deepEqual(objects, ["'none'"], `${where}: object-src 'none'`);
  assert.deepEqual(csp.get("base-uri"), ["'none'"], `${where}: base-uri 'none'`);
  const ancestors = csp.get("frame-ancestors") ?? [];
  assert.ok(["'self'", "'none'"].includes(ancestors.join(" ")), `${where}: frame-ancestors ${ancestors.join(" ")}`);
  const maxAge = /max-age=(\d+)/.exec(String(answer.headers["strict-transport-security"]))?.[1];
  assert.ok(Number(maxAge) >= ONE_YEAR, `${where}: HSTS of a year or more`);
  assert.equal(answer.headers["x-content-type-options"], "nosniff", where);
  assert.match(
    String(answer.headers["referrer-policy"]),
    /^(no-referrer|same-origin|strict-origin(-when-cross-origin)?)$/,
    where,
  );

  const nonce = scripts.find((value) => value.startsWith("'nonce-"))?.slice(7, -1) ?? "";
  for (const [tag] of answer.text.matchAll(/<script\b[^>]*>/gi)) {
    if (/type="application\/json"/.test(tag)) continue; // a data block: never run, so outside script-src
    assert.ok(nonce && tag.includes(`nonce="${nonce}"`), `${where}: every script carries this answer's nonce: ${tag}`);
  }
  for (const [tag] of answer.text.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/gi))
    assert.ok(tag.includes(`nonce="${nonce}"`), `${where}: ${tag}`);
  return nonce;
}

let portal: RunningPortal;
describe("server/app", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  describe("security headers (item 12)", () => {
    it("12. headers: every HTML answer has a CSP with a fresh nonce on every script, object-src and base-uri 'none', frame-ancestors 'self', HSTS, nosniff and a referrer policy", async () => {
      const answers: [string, PortalAnswer][] = [];
      const anonymous = new PortalClient(portal.app);
      const publicPaths = routes.filter((entry) => entry.section === "public").map((entry) => concrete(entry.path));
      for (const path of [
        ...publicPaths,
        "/?activeSite=VENDOR",
        "/login?uuid=%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E&type=Client",
        '/videos/"><script>alert(1)</script>',
        "/sandbox/mail",
      ])
        answers.push([`anonymous ${path}`, await anonymous.get(path)]);
      const alice = await signIn(portal.app, accounts.alice, portal.code);
      const vera = await signIn(portal.app, accounts.vera, portal.code);
      for (const entry of routes.filter((row) => row.section !== "public" && row.section !== "vendor"))
        answers.push([`alice ${entry.path}`, await alice.get(concrete(entry.path))]);
      for (const entry of routes.filter((row) => row.section === "vendor"))
        answers.push([`vera ${entry.path}`, await vera.get(concrete(entry.path))]);
      answers.push(["alice, another section", await alice.get("/vendor/home")]);
      answers.push(["alice, not found", await alice.get("/client/no-such-page")]);
      const pending = new PortalClient(portal.app);
      await pending.post("/api/auth/vendor", { username: "vince", password: "Portal-Demo-2026!" });
      answers.push(["the MFA step", await pending.get("/mfa")]);

      const html = answers.filter(([, answer]) => String(answer.headers["content-type"]).startsWith("text/html"));
      assert.ok(html.length > 100, `${html.length} HTML answers checked`);
      assert.deepEqual(
        [...new Set(html.map(([, answer]) => answer.status))].sort(),
        [200, 403, 404],
        "pages, forbidden and not-found pages alike",
      );
      const nonces = html.map(([where, answer]) => assertHtmlHeaders(answer, where)).filter(Boolean);
      assert.ok(nonces.length > 50, "pages with islands carry scripts");
      assert.equal(new Set(nonces).size, nonces.length, "a fresh nonce for every answer");
      for (const [where, answer] of html)
        assert.doesNotMatch(answer.text, /<script>alert/, `${where}: no injected script`);
    });

    it("12. headers: the checking page (permissions not to be had) carries the same headers", async () => {
      const answer = happyUpstream();
      const fake = await portalOnFake((call, response) =>
        call.path.endsWith("/user-info") ? sendJson(response, 500, {}) : answer(call, response),
      );
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        const checking = await visitor.get("/client/vip/dashboard");
        assert.equal(checking.status, 503);
        assertHtmlHeaders(checking, "checking page");
      } finally {
        await fake.close();
      }
    });

    it("12. headers: JSON answers and redirects carry HSTS, nosniff and the referrer policy too", async () => {
      const anonymous = new PortalClient(portal.app);
      for (const answer of [
        await anonymous.get("/client/home"),
        await anonymous.post("/api/auth/vendor", { username: "vera", password: "x" }),
        await anonymous.get("/healthz"),
        await anonymous.post("/api/nothing"),
      ]) {
        assert.match(String(answer.headers["strict-transport-security"]), /max-age=\d{8}/);
        assert.equal(answer.headers["x-content-type-options"], "nosniff");
        assert.ok(answer.headers["referrer-policy"]);
      }
    });

    it("12. headers: the PDF frames still work: frame-src allows this origin and the PDF may be framed by it", async () => {
      const alice = await signIn(portal.app, accounts.alice, portal.code);
      const documents = routes.filter((entry) => entry.section === "client" && entry.pdf);
      assert.ok(documents.length >= 3);
      for (const entry of documents) {
        const page = await alice.get(entry.path);
        assert.equal(page.status, 200, entry.path);
        const src = /<iframe\b[^>]*\bsrc="([^"]+)"/.exec(page.text)?.[1];
        assert.equal(src, `/pdfs/${entry.pdf}`, `${entry.path} frames its PDF`);
        const csp = directivesOf(String(page.headers["content-security-policy"]));
        const frames = csp.get("frame-src") ?? csp.get("child-src") ?? csp.get("default-src") ?? [];
        assert.ok(frames.includes("'self'"), `frame-src lets the page frame /pdfs: ${frames.join(" ")}`);
        const pdf = await alice.get(src);
        assert.equal(pdf.status, 200);
        assert.equal(pdf.headers["content-type"], "application/pdf");
        assert.match(String(pdf.headers["content-disposition"]), /^inline/);
        assert.ok(!/deny/i.test(String(pdf.headers["x-frame-options"] ?? "")), "not forbidden to frame");
        const pdfAncestors = directivesOf(String(pdf.headers["content-security-policy"] ?? "")).get("frame-ancestors");
        assert.ok(!pdfAncestors || pdfAncestors.includes("'self'"), "framing by this origin allowed");
        assert.equal(pdf.headers["x-content-type-options"], "nosniff");
      }
    });
  });

  describe("the browser's own icon request", () => {
    it("/favicon.ico sets no cookie and leaves the notice for the page", async () => {
      const visitor = new PortalClient(portal.app);
      const sealed = (await sessionCodec(portal.config)).encode({ flash: { error: "Kept for the page" } });
      visitor.cookies.set("__Host-portal-session", decodeURIComponent(sealed));
      const icon = await visitor.get("/favicon.ico");
      assert.equal(icon.status, 301);
      assert.match(String(icon.headers.location), /^\/assets\/.+\.png$/);
      assert.equal(icon.headers["set-cookie"], undefined);
      assert.match((await visitor.get("/")).text, /Kept for the page/);
    });
  });

  describe("what a cache may keep", () => {
    it("nothing but the hashed assets and the favicon's redirect: pages, calls, probes and refusals are no-store", async () => {
      const visitor = new PortalClient(portal.app);
      const page = await visitor.get("/");
      const asset = /href="(\/assets\/portal-[^"]+\.css)"/.exec(page.text)?.[1];
      assert.ok(asset, "the page links its stylesheet");
      assert.match(String((await visitor.get(asset)).headers["cache-control"]), /max-age=31536000, immutable/);
      assert.match(String((await visitor.get("/favicon.ico")).headers["cache-control"]), /^public, max-age=86400$/);
      const urls = [
        "/healthz",
        "/readyz",
        "/client/home",
        "/api/no-such-call",
        "/no-such-page",
        "/assets/no-such-file.js",
      ];
      const answers: [string, PortalAnswer][] = [
        ["/", page],
        ["a refused call", await visitor.post("/api/auth/client", {})],
      ];
      for (const url of urls) answers.push([url, await visitor.get(url)]);
      for (const [what, answer] of answers) assert.equal(answer.headers["cache-control"], "no-store", what);
    });
  });

  /**
   * What the portal writes on a socket that sent `bytes` and then nothing more, until it closes it (or `atMostMs` has
   * passed).
   */
  async function rawAnswer(port: number, bytes: string, atMostMs?: number): Promise<string> {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on("error", () => {});
    socket.write(bytes);
    const closed = once(socket, "close");
    await (atMostMs === undefined
      ? closed
      : Promise.race([closed, new Promise((resolve) => setTimeout(resolve, atMostMs))]));
    socket.destroy();
    return text;
  }

  describe("a slow client (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS)", () => {
    it("is answered 408, with every answer's headers, when its headers or its body are late", async (t) => {
      const fake = await portalOnFake(undefined, {
        listen: true,
        env: { HEADERS_TIMEOUT_MS: "200", REQUEST_TIMEOUT_MS: "400" },
      });
      t.after(() => fake.close());
      const port = Number(new URL(fake.url).port);
      for (const bytes of [
        "GET /healthz HTTP/1.1\r\nhost: localhost\r\n",
        "POST /api/auth/vendor HTTP/1.1\r\nhost: localhost\r\nsec-fetch-site: same-origin\r\nx-portal-request: 1\r\n" +
          'content-type: application/json\r\ncontent-length: 100\r\n\r\n{"user',
      ]) {
        const { value: answer, ms } = await timed(() => rawAnswer(port, bytes));
        assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/, bytes);
        assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/);
        assert.ok(ms < scaled(5_000), `closed after ${Math.round(ms)} ms`);
      }
    });

    it("has deadlines shorter than before (30 s for the whole request), the headers' not past the request's", () => {
      const { clients } = loadConfig({}, () => {});
      assert.deepEqual(clients, { headersTimeoutMs: 10_000, requestTimeoutMs: 20_000, maxSocketsPerAddress: 50 });
      assert.throws(
        () => loadConfig({ HEADERS_TIMEOUT_MS: "5000", REQUEST_TIMEOUT_MS: "1000" }, () => {}),
        /HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS \(1000\)/,
      );
    });
  });

  describe("Node's own early answers", () => {
    const answerTo = (port: number, bytes: string) => rawAnswer(port, bytes, scaled(1_000));
    const assertHeaders = (answer: string, where: string) => {
      const head = answer.split("\r\n\r\n", 1)[0] ?? "";
      assert.match(head, /\r\nx-content-type-options: nosniff\r\n/i, where);
      assert.match(head, /\r\nstrict-transport-security: max-age=31536000; includeSubDomains\r\n/i, where);
      assert.match(
        head,
        /\r\ncontent-security-policy: default-src 'none';base-uri 'none';frame-ancestors 'self'\r\n/i,
        where,
      );
    };

    it("a request without a Host header reaches the portal's Host check, and its 421 carries every answer's headers", async (t) => {
      const fake = await portalOnFake(undefined, { listen: true });
      t.after(() => fake.close());
      const answer = await answerTo(Number(new URL(fake.url).port), "GET /healthz HTTP/1.1\r\n\r\n");
      assert.match(answer, /^HTTP\/1\.1 421 Misdirected Request\r\n/, answer);
      assertHeaders(answer, "no Host");
    });

    it("an Expect the portal cannot meet is answered 417 in section 8's shape, with every answer's headers", async (t) => {
      const fake = await portalOnFake(undefined, { listen: true });
      t.after(() => fake.close());
      const answer = await answerTo(
        Number(new URL(fake.url).port),
        "POST /api/auth/vendor HTTP/1.1\r\nhost: localhost\r\nexpect: 200-ok\r\ncontent-length: 2\r\n\r\n{}",
      );
      assert.match(answer, /^HTTP\/1\.1 417 Expectation Failed\r\n/, answer);
      assertHeaders(answer, "Expect: 200-ok");
      assert.match(answer, /\r\ncache-control: no-store\r\n/i);
      assert.deepEqual(JSON.parse(answer.split("\r\n\r\n")[1] ?? ""), {
        detail: "The request's Expect header is not one the portal meets.",
        code: "expectation-failed",
      });
    });
  });
});
