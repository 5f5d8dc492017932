// server/loaders/loaders.tsx: a route row names its loader, which loads on the server what the row's screen shows beyond
// the table's words; the screen places what it drew, whatever its kind, so a page that shows data needs no screen kind
// of its own.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { accounts, signIn } from "#harness/sign-in.ts";
import { loaders } from "#server/loaders/loaders.tsx";
import { readManifest } from "#server/render/assets.ts";
import { noPermissions } from "#tests/support/permissions.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";
import type { PageContext } from "#web/page-context.ts";
import { routes } from "#web/routes/table.ts";
import { SectionPage } from "#web/screens/section-page.tsx";
import { accountTexts } from "#web/texts/account.ts";
import { sectionTexts } from "#web/texts/sections.ts";

/** A page's text as read: the apostrophes React escapes, as written. */
const read = (html: string) => html.replaceAll("&#x27;", "'");

describe("the rows that show data", () => {
  it("name their loader: each section's change-password page the account sections, each home the last sign-in", () => {
    const named = routes.filter((entry) => entry.loader).map((entry) => [entry.path, entry.loader]);
    const expected = routes
      .filter((entry) => entry.screen === "change-password" || entry.screen === "home")
      .map((entry) => [entry.path, entry.screen === "home" ? "last-sign-in" : "account"]);
    assert.deepEqual(named, expected);
    assert.ok(expected.length >= 8, "four sections, each with a home and a change-password page");
  });

  it("name only loaders the server has", () => {
    for (const entry of routes)
      if (entry.loader) assert.equal(typeof loaders[entry.loader], "function", `${entry.path}: ${entry.loader}`);
  });
});

describe("a row's loader on a signed-in page", () => {
  let fake: PortalOnFake;
  before(async () => {
    fake = await portalOnFake();
  });
  after(() => fake.close());

  it("draws what it loaded on its own row's screen, and on no other", async () => {
    const alice = await signIn(fake.app, accounts.alice, fake.code);
    const account = await alice.get("/client/users/change-password");
    assert.equal(account.status, 200);
    assert.ok(read(account.text).includes(accountTexts.sessionsHeading), "the account sections under the form");
    const activity = await alice.get("/client/activity");
    assert.equal(activity.status, 200);
    assert.ok(!read(activity.text).includes(accountTexts.sessionsHeading), "a row without the loader shows none of it");
  });
});

describe("a screen of any kind", () => {
  const context: PageContext = {
    assets: readManifest(),
    support: { phone: "1", phoneUk: "2", email: "help@portal.test" },
    providerName: "Provider",
    taxBridge: false,
    path: "/client/activity",
    user: { name: "alice", site: "client" },
    year: 2026,
  };
  const activity = routes.find((entry) => entry.path === "/client/activity");
  const render = (loaded?: ReturnType<typeof createElement>) => {
    assert.ok(activity, "the activity page, a screen whose content requirements 2.8 does not show");
    return read(
      renderToStaticMarkup(
        createElement(SectionPage, {
          context,
          section: "client",
          audience: "client",
          permissions: noPermissions,
          screen: { kind: "entry", entry: { ...activity, loader: "account" }, ...(loaded ? { loaded } : {}) },
        }),
      ),
    );
  };

  it("places what its row's loader drew: a screen whose content is not shown, in place of the provider's note", () => {
    const drawn = render(createElement("p", { className: "loaded-data" }, "Three payments today."));
    assert.match(drawn, /<p class="loaded-data">Three payments today\.<\/p>/);
    assert.ok(!drawn.includes(sectionTexts.fromProvider), "the data, not the note that there is none");
    assert.ok(render().includes(sectionTexts.fromProvider), "nothing loaded: the note");
  });
});
