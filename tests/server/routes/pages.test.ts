// Every row of the route table × representative permission sets (each section 6 gate allowed and denied, both
// audiences): the HTTP status, the texts of requirements 2.12, and a navigation that lists exactly the permitted pages.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { happyUpstream } from "#harness/fake-upstream.ts";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import { type Account, accounts, signIn } from "#harness/sign-in.ts";
import { noPermissions } from "#tests/support/permissions.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake, setCookies } from "#tests/support/portal-on-fake.ts";
import { sampleOf, section6, specAllows } from "#tests/support/spec-routes.ts";
import type { RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";
import type { UserInfo } from "#web/site.ts";
import { sectionTexts } from "#web/texts/sections.ts";

const SUPPORT_EMAIL = "help-desk@portal.test";
const texts = {
  forbidden: [
    "You Do Not Have Access To That Page",
    "Please contact your acccount administrator.",
    `If you believe this to be an error, please contact us at ${SUPPORT_EMAIL}`,
  ],
  notFound: [
    "The Page You Requested Could Not Be Found",
    "Please check the URL and try again.",
    `If you believe this to be an error, please contact us at ${SUPPORT_EMAIL}`,
  ],
};

type Permissions = Omit<UserInfo, "loaded">;

type PermissionSet = { name: string; account: Account; permissions: Permissions };

// Together they allow and deny every gate of section 6 (checked below): for each gate, some set meets it and
// some set does not, and each half of a two-part gate fails alone.
const permissionSets: PermissionSet[] = [
  {
    name: "a client with every permission",
    account: accounts.alice,
    permissions: {
      ...noPermissions,
      isAdmin: true,
      clientServices: ["60542", "87286", "88689"],
      paymentTier: true,
      spotTier: true,
      vipTier: "2",
    },
  },
  {
    name: "a view-only client with service 1894 and no tiers",
    account: accounts.alice,
    permissions: { ...noPermissions, viewOnly: true, clientServices: ["1894"] },
  },
  {
    name: "a view-only client with a payment tier, VIP tier 1 without 88689, service 60542 and a spot tier",
    account: accounts.alice,
    permissions: {
      ...noPermissions,
      viewOnly: true,
      paymentTier: true,
      spotTier: true,
      vipTier: "1",
      clientServices: ["60542"],
    },
  },
  {
    name: "a client admin with services 88689, 87286 and 1894, no payment, spot or VIP tier",
    account: accounts.alice,
    permissions: { ...noPermissions, isAdmin: true, clientServices: ["88689", "87286", "1894"] },
  },
  {
    name: "a vendor admin with user tier 1 and beneficiary service 60562",
    account: accounts.vera,
    permissions: { ...noPermissions, isAdmin: true, userTier: "1", beneServices: ["60562"] },
  },
  { name: "a vendor with user tier 0 and no service", account: accounts.vera, permissions: noPermissions },
  {
    name: "a vendor with user tier 2 and another beneficiary service",
    account: accounts.vera,
    permissions: { ...noPermissions, userTier: "2", beneServices: ["99999"] },
  },
];

let portal: RunningPortal;
const visitors = new Map<PermissionSet, PortalClient>();

/** The permissions are cached in the session when MFA passes, so each set is set upstream, then signed in once. */
async function signInWith(set: PermissionSet): Promise<PortalClient> {
  const { site, username } = set.account;
  const shortname = set.account.site === "client" ? set.account.shortname : "-";
  await sandboxPost(
    portal.sandboxUrl,
    `/sandbox/users/${site}/${shortname}/${username}/permissions`,
    set.permissions,
    "PUT",
  );
  return signIn(portal.app, set.account, portal.code);
}

function visitorOf(set: PermissionSet): PortalClient {
  const visitor = visitors.get(set);
  assert.ok(visitor, `${set.name} signed in`);
  return visitor;
}

function setNamed(start: string): PermissionSet {
  const set = permissionSets.find((candidate) => candidate.name.startsWith(start));
  assert.ok(set, start);
  return set;
}

describe("server/routes/pages", () => {
  before(async () => {
    portal = await startPortalInProcess({ listen: false, env: { SUPPORT_EMAIL } });
    for (const set of permissionSets) visitors.set(set, await signInWith(set));
  });
  after(() => portal.close());

  /** The visible text of an HTML answer, tags dropped and entities decoded, whitespace collapsed. */
  function textOf(html: string): string {
    return html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(
        /&(amp|lt|gt|quot|#x27|#39);/g,
        (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" })[name] ?? "",
      )
      .replace(/\s+/g, " ");
  }

  /** The hrefs of the section navigation, and the one marked current. */
  function navigationOf(html: string): { links: string[]; current: string[] } {
    const nav = /<nav [^>]*class="section-nav"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
    const links = [...nav.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1] ?? "");
    const current = [...nav.matchAll(/<a href="([^"]+)" aria-current="page"/g)].map((m) => m[1] ?? "");
    return { links, current };
  }

  function assertTexts(answer: PortalAnswer, expected: string[], where: string): void {
    const text = textOf(answer.text);
    for (const line of expected) assert.ok(text.includes(line), `${where} shows "${line}"`);
  }

  /** What a row shows when it opens: its title (and the page's), and its purpose or document. */
  function assertScreen(answer: PortalAnswer, entry: RouteEntry, where: string): void {
    // A section page's title names its section ("Inbox · Client"), so the same screen of two sections reads apart.
    const title = entry.section === "public" ? entry.title : sectionTexts.pageTitle(entry.title, entry.section);
    assert.ok(answer.text.includes(`<title>${title.replace("&", "&amp;")} · Payments Portal</title>`), where);
    const text = textOf(answer.text);
    assert.ok(text.includes(entry.title), `${where} shows its title`);
    if (entry.about) assert.ok(text.includes(entry.about), `${where} says what it is for`);
    if (entry.pdf) assert.ok(answer.text.includes(`src="/pdfs/${entry.pdf}"`), `${where} frames its PDF`);
  }

  const sectionRows = (section: SignedInSection) => routes.filter((entry) => entry.section === section);

  describe("the permission sets", () => {
    it("allow and deny every gate of requirements 6", () => {
      for (const gate of section6) {
        const site = gate.pages[0]?.split("/")[1];
        const sets = permissionSets.filter((set) => set.account.site === site);
        const met = sets.map((set) => gate.allows({ ...set.permissions, loaded: true }));
        assert.ok(met.includes(true) && met.includes(false), gate.condition);
      }
    });
  });

  for (const set of permissionSets) {
    const section = set.account.site;
    describe(`for ${set.name}`, () => {
      it("every page of the own section answers 200 with its screen, or 403 with the forbidden texts", async () => {
        const visitor = visitorOf(set);
        const info = { ...set.permissions, loaded: true };
        for (const entry of sectionRows(section)) {
          const path = sampleOf(entry.path);
          const answer = await visitor.get(path);
          const allowed = specAllows(entry.path, info) && entry.screen !== "forbidden";
          assert.equal(answer.status, allowed ? 200 : 403, path);
          if (allowed) assertScreen(answer, entry, path);
          else assertTexts(answer, texts.forbidden, path);
        }
      });

      it("the navigation lists exactly the permitted pages, grouped, the current one marked", async () => {
        const visitor = visitorOf(set);
        const info = { ...set.permissions, loaded: true };
        const expected = sectionRows(section)
          .filter((entry) => entry.group && specAllows(entry.path, info))
          .map((entry) => entry.path);
        const answer = await visitor.get(`/${section}/home`);
        const nav = navigationOf(answer.text);
        assert.deepEqual(nav.links.toSorted(), expected.toSorted());
        assert.deepEqual(nav.current, [`/${section}/home`]);
        const alias = await visitor.get(`/${section}`);
        assert.deepEqual(navigationOf(alias.text).current, [`/${section}/home`], "the index marks Home");
      });

      it("an unknown path in the section answers 404 with the not-found texts; any other unknown path goes to /", async () => {
        const visitor = visitorOf(set);
        for (const path of [`/${section}/nowhere`, `/${section}/home/deeper`, `/${section}/vip`]) {
          const answer = await visitor.get(path);
          assert.equal(answer.status, 404, path);
          assertTexts(answer, texts.notFound, path);
          assert.ok(navigationOf(answer.text).links.length > 0, `${path} keeps the navigation`);
        }
        for (const path of ["/nowhere", `/${section}-home`, "/assets-missing/x"]) {
          const answer = await visitor.get(path);
          assert.deepEqual([answer.status, answer.headers.location], [302, "/"], path);
        }
      });
    });
  }

  describe("the sections of another audience", () => {
    it("answer a vendor 403 with the forbidden texts on every client, patent-fee and immigration-fee page", async () => {
      const vendor = visitorOf(setNamed("a vendor admin"));
      for (const entry of routes.filter(
        (row) => row.section !== "public" && sectionAudience[row.section] === "client",
      )) {
        const answer = await vendor.get(sampleOf(entry.path));
        assert.equal(answer.status, 403, entry.path);
        assertTexts(answer, texts.forbidden, entry.path);
        assert.deepEqual(navigationOf(answer.text).links, [], "no navigation of a section that is not the user's");
      }
    });

    it("answer a client 403 with the forbidden texts on every vendor page", async () => {
      const client = visitorOf(setNamed("a client with every permission"));
      for (const entry of sectionRows("vendor")) {
        const answer = await client.get(sampleOf(entry.path));
        assert.equal(answer.status, 403, entry.path);
        assertTexts(answer, texts.forbidden, entry.path);
      }
    });

    it("serve the patent-fee and immigration-fee sections to a client, with their own navigation", async () => {
      for (const set of [setNamed("a client with every permission"), setNamed("a view-only client")]) {
        const client = visitorOf(set);
        for (const section of ["uspto", "uscis"] as const) {
          for (const entry of sectionRows(section)) {
            const answer = await client.get(sampleOf(entry.path));
            const expected = entry.screen === "forbidden" ? 403 : 200;
            assert.equal(answer.status, expected, entry.path);
            if (expected === 200) assertScreen(answer, entry, entry.path);
            else assertTexts(answer, texts.forbidden, entry.path);
          }
          const nav = navigationOf((await client.get(`/${section}/home`)).text);
          const listed = sectionRows(section).filter((entry) => entry.group);
          assert.deepEqual(nav.links.toSorted(), listed.map((entry) => entry.path).toSorted());
          const notFound = await client.get(`/${section}/nowhere`);
          assert.equal(notFound.status, 404);
          assertTexts(notFound, texts.notFound, `/${section}/nowhere`);
        }
      }
    });
  });

  describe("without a session", () => {
    it("every section page redirects to /, which brings the person back to it once signed in", async () => {
      const anonymous = new PortalClient(portal.app);
      for (const path of [
        ...routes.filter((row) => row.section !== "public").map((row) => sampleOf(row.path)),
        "/client/nowhere",
        "/vendor/nowhere",
      ]) {
        const answer = await anonymous.get(path);
        const location = new URL(String(answer.headers.location), "http://portal.test");
        assert.deepEqual(
          [answer.status, location.pathname, location.searchParams.get("return")],
          [302, "/", path],
          path,
        );
      }
      const outside = await anonymous.get("/nowhere");
      assert.deepEqual([outside.status, outside.headers.location], [302, "/"], "a path of no section");
    });

    it("every top-level route of 2.1 answers 200 inside the portal's frame, the † ones with their title", async () => {
      const anonymous = new PortalClient(portal.app);
      for (const entry of routes.filter((row) => row.section === "public" && row.screen !== "mfa")) {
        const answer = await anonymous.get(sampleOf(entry.path));
        assert.equal(answer.status, 200, entry.path);
        assert.ok(answer.text.includes('class="site-header'), `${entry.path} is inside the frame`);
        if (entry.screen === "about") assertScreen(answer, entry, entry.path);
      }
      const vendorAlert = await anonymous.get("/vendoralert");
      const register = await anonymous.get("/register");
      assert.equal(textOf(vendorAlert.text), textOf(register.text), "vendoralert shows the register screen");
    });

    it("/mfa with nothing pending goes to / with the session-expired message", async () => {
      const anonymous = new PortalClient(portal.app);
      const answer = await anonymous.get("/mfa");
      assert.deepEqual([answer.status, answer.headers.location], [302, "/"]);
      assert.ok(textOf((await anonymous.get("/")).text).includes("Your session has expired. Please Login again"));
    });
  });

  describe("a session that is not through sign-in", () => {
    it("waiting for its code is sent to /mfa from a section page", async () => {
      const pending = new PortalClient(portal.app);
      const login = { shortname: "ACME", username: "victor", password: "Portal-Demo-2026!" };
      assert.equal((await pending.post("/api/auth/client", login)).status, 200);
      const answer = await pending.get("/client/home");
      assert.deepEqual([answer.status, answer.headers.location], [302, "/mfa"]);
    });

    it("with an expired password is sent to /mfa, where the change-password form waits", async () => {
      const paula = await signIn(portal.app, accounts.paula, portal.code);
      const answer = await paula.get("/client/invoices/status");
      assert.deepEqual([answer.status, answer.headers.location], [302, "/mfa"]);
      const mfa = await paula.get("/mfa");
      assert.equal(mfa.status, 200);
      assert.ok(textOf(mfa.text).includes("Your password has expired. Please enter a new password"));
    });
  });

  describe("a GET from another site", () => {
    it("B10: a GET from another site never writes the session: /mfa and /tax-bridge/login set no cookie, and a signed-in session is not switched into tax-bridge mode", async () => {
      const fake = await portalOnFake(happyUpstream());
      try {
        const visitor = await signIn(fake.app, accounts.alice, fake.code);
        const crossSite = {
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
          "sec-fetch-dest": "document",
        };
        // A link on another site: no islands' header.
        const otherSite = () => new PortalClient(fake.app, { islandsHeader: false });
        for (const url of ["/mfa", "/tax-bridge/login"]) {
          // A browser with no session for the portal: its answer must not write one over the victim's.
          const answer = await otherSite().get(url, crossSite);
          assert.ok(answer.status < 400, `${url}: ${answer.status}`);
          assert.deepEqual(setCookies(answer), [], `${url}: a cross-site GET sets no cookie`);
        }
        assert.equal((await visitor.get("/client/home")).status, 200, "the victim is still signed in");
        const switched = await otherSite().get("/tax-bridge/login", { ...crossSite, cookie: visitor.cookieHeader });
        assert.deepEqual(setCookies(switched), [], "a signed-in session's cookie is not rewritten by it");
        await visitor.get("/tax-bridge/login");
        assert.equal(
          (await visitor.get("/")).headers.location,
          "/session/landing",
          "a signed-in session stays out of tax-bridge mode, even visiting /tax-bridge/login itself",
        );
      } finally {
        await fake.close();
      }
    });
  });
});
