// Issue 4, items 11 and 13: permission gates decided on the server, and redirects that never leave this origin.
// Issue 12, B13: the session routes' query and body are declared, so a hostile shape of `return` is a 400, not a 500.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { PERMISSIONS_TTL_MS } from "#server/permissions.ts";
import { safePath } from "#server/safe-path.ts";
import { happyUpstream, portalOnFake, signInOnFake } from "#tests/security/fake-upstream.ts";
import { permissionsWith } from "#tests/support/permissions.ts";
import { sandboxPost, startPortal } from "#tests/support/portal.ts";
import { accounts, PortalVisitor, signIn } from "#tests/support/sign-in.ts";
import { gates } from "#web/gates.ts";
import { routes } from "#web/routes/table.ts";

const COOKIE = "__Host-portal-session";
const concrete = (path: string) => path.replace(/:\w+/g, "x1");

/** A client with no permission at all: every gate but "hidden when clientServices has 1894" fails. */
const nothing = permissionsWith({ viewOnly: true });

/** A redirect target is safe when a browser, resolving it against this origin, stays on this origin. */
function staysHere(target: string): boolean {
  const here = "https://portal.example";
  // Browsers drop tabs and newlines from URLs before resolving them.
  const resolved = new URL(target.replace(/[\t\n\r]/g, ""), `${here}/some/page`);
  return resolved.origin === here && target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\");
}

describe("permission gates (item 11)", () => {
  it("11. gates: a gated page requested without the permission is 403 from the server, with no upstream call but the visit record", async () => {
    const fake = await portalOnFake(happyUpstream({ permissions: nothing }));
    try {
      const { visitor } = await signInOnFake(fake.app);
      fake.upstream.calls.length = 0;
      const gated = routes.filter(
        (entry) => entry.section === "client" && (entry.gate || entry.screen === "forbidden"),
      );
      assert.ok(gated.length > 20, "the table has gated client pages");
      for (const entry of gated) {
        const passes = entry.screen !== "forbidden" && entry.gate !== undefined && gates[entry.gate](nothing);
        const page = await visitor.get(concrete(entry.path));
        assert.equal(page.statusCode, passes ? 200 : 403, `${entry.path} (${entry.gate ?? entry.screen})`);
      }
      for (const path of ["/vendor/home", "/vendor/invoice/entry"])
        assert.equal((await visitor.get(path)).statusCode, 403, `${path}: another audience's section`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const kinds = new Set(fake.upstream.calls.map((call) => `${call.method} ${call.path}`));
      assert.deepEqual(
        [...kinds],
        ["POST /web/track"],
        "no permissions fetch, no other call: only SPEC.md 4.8's records",
      );
    } finally {
      await fake.close();
    }
  });

  it("11. gates: an API call for another audience is 403 from the server with no upstream call", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const { visitor } = await signInOnFake(fake.app, "client");
      fake.upstream.calls.length = 0;
      const copy = () => {
        const other = new PortalVisitor(fake.app);
        for (const [name, value] of visitor.cookies) other.cookies.set(name, value);
        return other;
      };
      assert.equal(
        (await copy().post("/api/web/vendor/password/test", { userId: "vera", password: "pw" })).statusCode,
        403,
      );
      assert.equal(
        (await copy().post("/api/web/vendor/password/change", { password: "Strong-Password-2026!" })).statusCode,
        403,
      );
      assert.deepEqual(fake.upstream.calls, []);
    } finally {
      await fake.close();
    }
  });

  it("11. gates: a change of permissions upstream takes effect within the refresh period", async () => {
    let clock = Date.now();
    const portal = await startPortal({ now: () => clock, listen: false });
    try {
      const admin = routes.find((entry) => entry.section === "client" && entry.gate === "isAdmin");
      assert.ok(admin);
      const visitor = await signIn(portal, accounts.alice);
      assert.equal((await visitor.get(admin.path)).statusCode, 200, "alice is an admin");
      const setAdmin = (isAdmin: boolean) =>
        sandboxPost(portal.sandboxUrl, "/sandbox/users/client/ACME/alice/permissions", { isAdmin }, "PUT");
      await setAdmin(false);
      clock += PERMISSIONS_TTL_MS + 1_000;
      assert.equal((await visitor.get(admin.path)).statusCode, 403, "revoked: refused once the period has passed");
      await setAdmin(true);
      clock += PERMISSIONS_TTL_MS + 1_000;
      assert.equal((await visitor.get(admin.path)).statusCode, 200, "granted: open once the period has passed");
    } finally {
      await portal.close();
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
    const portal = await startPortal({ listen: false });
    try {
      const loginWith = async (pathname: string) => {
        const sealed = portal.app.encodeSession({
          flash: { error: "Your session has expired. Please Login again", pathname },
        });
        const cookie = `${COOKIE}=${sealed}`;
        const page = await portal.app.inject({ url: "/", headers: { cookie } });
        assert.equal(page.statusCode, 200);
        return page.body;
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
    const portal = await startPortal({ listen: false });
    try {
      const visitor = await signIn(portal, accounts.vera);
      const anonymous = new PortalVisitor(portal.app);
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

describe("breaks of the outside review (issue 12)", () => {
  it("B13: POST /session/stay or GET /session/idle with return given twice, as an array or as an object answers 400, never 500", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const { visitor } = await signInOnFake(fake.app);
      const headers = { cookie: visitor.cookieHeader };
      const form = { ...headers, "content-type": "application/x-www-form-urlencoded" };
      const json = { ...headers, "content-type": "application/json" };
      const hostile: [string, InjectOptions][] = [
        ["idle, return twice", { url: "/session/idle?return=%2Fclient%2Fhome&return=%2Fclient%2Finbox", headers }],
        ["idle, return twice, one empty", { url: "/session/idle?return=&return=%2Fclient%2Fhome", headers }],
        [
          "stay, return twice in the form",
          { method: "POST", url: "/session/stay", headers: form, payload: "return=%2Fa&return=%2Fb" },
        ],
        [
          "stay, return as an array",
          { method: "POST", url: "/session/stay", headers: json, payload: '{"return":["/client/home"]}' },
        ],
        [
          "stay, return as an object",
          { method: "POST", url: "/session/stay", headers: json, payload: '{"return":{"toString":1}}' },
        ],
        ["stay, return as a number", { method: "POST", url: "/session/stay", headers: json, payload: '{"return":42}' }],
      ];
      for (const [what, request] of hostile) {
        const answer = await fake.app.inject(request);
        assert.equal(answer.statusCode, 400, `${what}: ${answer.statusCode} ${answer.body}`);
        assert.ok(answer.json().description || answer.json().detail, `${what}: a clear message`);
      }
      const fine = await fake.app.inject({ url: "/session/idle?return=%2Fclient%2Finbox", headers });
      assert.equal(fine.statusCode, 303, "one return is still followed");
      assert.equal(fine.headers.location, "/client/inbox");
    } finally {
      await fake.close();
    }
  });
});
