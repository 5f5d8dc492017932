// Same-origin redirect targets (server/security/safe-path.ts). SECURITY.md item 13: redirects that never leave this
// origin.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { safePath } from "#server/security/safe-path.ts";
import { startPortalInProcess } from "#tests/support/portal.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";

const COOKIE = "__Host-portal-session";

/** A redirect target is safe when a browser, resolving it against this origin, stays on this origin. */
function staysHere(target: string): boolean {
  const here = "https://portal.example";
  // Browsers drop tabs and newlines from URLs before resolving them.
  const resolved = new URL(target.replace(/[\t\n\r]/g, ""), `${here}/some/page`);
  return resolved.origin === here && target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\");
}

describe("a redirect target", () => {
  it("is followed when it is a path on this origin", () => {
    assert.equal(safePath("/client/home"), "/client/home");
    assert.equal(safePath("/vendor/reports/invoices?page=2"), "/vendor/reports/invoices?page=2");
  });

  it("is refused when it leaves the origin", () => {
    for (const target of [
      "//evil.example",
      "https://evil.example/",
      "/\\evil.example",
      "\\\\evil",
      "javascript:alert(1)",
      "/\tevil",
      "evil",
    ]) {
      assert.equal(safePath(target), undefined, target);
    }
  });
});

describe("redirects (item 13)", () => {
  it("13. redirects: a return-to target of //evil.example, https://…, /\\evil or a disguise of them is refused", () => {
    const refused = [
      "//evil.example",
      "///evil.example",
      "//evil.example/client/home",
      "https://evil.example/",
      "http:evil.example",
      "HTTPS://evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/\\/evil.example",
      "\\/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "\t//evil.example",
      " //evil.example",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "evil.example",
      "",
      "/..//evil.example",
      "/.//evil.example",
      "/client/..//evil.example",
      "/%2e%2e//evil.example",
    ];
    for (const target of refused) assert.equal(safePath(target), undefined, JSON.stringify(target));
    for (const target of ["/", "/client/home", "/client/home?x=1", "/vendor/invoice/due"])
      assert.equal(safePath(target), target, target);
  });

  it("13. redirects: whatever the target, safePath answers nothing or a path that stays on this origin (fast-check)", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      "/\\",
      ".",
      "..",
      "%2F",
      "%5C",
      "evil.example",
      "@",
      ":",
      "http:",
      "?",
      "#",
      "\t",
      "\n",
      " ",
    );
    const target = fc.oneof(
      fc.string(),
      fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join("")),
      fc.webUrl(),
    );
    fc.assert(
      fc.property(target, (candidate) => {
        const safe = safePath(candidate);
        if (safe !== undefined) assert.ok(staysHere(safe), `${JSON.stringify(candidate)} → ${JSON.stringify(safe)}`);
      }),
      { numRuns: 10_000 },
    );
  });

  it("13. redirects: the navigation-state pathname in the session reaches the login page only when it is a same-origin path", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const codec = await sessionCodec(portal.config);
      const loginWith = async (pathname: string) => {
        const sealed = codec.encode({
          flash: { error: "Your session has expired. Please Login again", pathname },
        });
        const cookie = `${COOKIE}=${sealed}`;
        const page = await new PortalClient(portal.app, { islandsHeader: false }).get("/", { cookie });
        assert.equal(page.status, 200);
        return page.text;
      };
      for (const evil of ["//evil.example", "https://evil.example/x", "/\\evil.example", "/\t/evil.example"]) {
        const body = await loginWith(evil);
        assert.doesNotMatch(body, /evil\.example/, `${JSON.stringify(evil)} is dropped`);
        assert.match(body, /Your session has expired/, "the message itself still shows");
      }
      assert.match(await loginWith("/client/home"), /"pathname":"\/client\/home"/, "a path of this origin is kept");
    } finally {
      await portal.close();
    }
  });

  it("13. redirects: every redirect the portal answers points to a path on this origin", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const visitor = await signIn(portal.app, accounts.vera, portal.code);
      const anonymous = new PortalClient(portal.app);
      const paths = [
        "//evil.example",
        "//evil.example/",
        "/\\evil.example",
        "/%2F%2Fevil.example",
        "/%5C%5Cevil.example",
        "/client/..//evil.example",
        "/https://evil.example",
        "/mfa?next=//evil.example",
        "/?pathname=//evil.example",
        "/login?next=https://evil.example",
        "/client/home",
        "/vendor/home",
        "/mfa",
        "/",
      ];
      let redirects = 0;
      for (const who of [visitor, anonymous]) {
        for (const path of paths) {
          const answer = await who.get(path);
          const location = answer.headers.location;
          if (location === undefined) continue;
          redirects += 1;
          assert.ok(staysHere(String(location)), `${path} → ${String(location)}`);
        }
      }
      const out = await visitor.post("/session/logout");
      assert.ok(staysHere(String(out.headers.location)));
      assert.ok(redirects > 5, `redirects were exercised (${redirects})`);
    } finally {
      await portal.close();
    }
  });
});
