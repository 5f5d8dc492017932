// A section's home says what its person may do there, and what each area holds, of the pages their gates open and
// no other: a view-only client is not told to upload batches or pay, a vendor of tier 0 not to submit invoices.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seedAccounts } from "#sandbox/seed.ts";
import { opensPath } from "#web/routes/opens.ts";
import type { NavGroup, SignedInSection } from "#web/routes/row.ts";
import { routes } from "#web/routes/table.ts";
import type { UserInfo } from "#web/site.ts";
import { homeTexts, type Opens } from "#web/texts/home.ts";

/** What the sandbox's seed user of that site and user ID may open (the first of that name: ACME's alice). */
function opensFor(site: "client" | "vendor", username: string): Opens {
  const seed = seedAccounts.find((account) => account.site === site && account.username === username);
  assert.ok(seed, username);
  const permissions: UserInfo = { loaded: true, ...seed.permissions };
  return (path) => opensPath(path, permissions);
}

describe("what a client may do, on the client home", () => {
  it("tells a client with every permission all of it", () => {
    assert.equal(
      homeTexts.doings("client", opensFor("client", "alice")),
      "Upload batches, enter and import invoices, choose invoices to pay, follow your invoices, run reports and look up your vendors' history, terms and W-8 forms.",
    );
  });

  it("tells a view-only client only what it may do: no batches, no entry, no payment", () => {
    const victor = opensFor("client", "victor");
    assert.equal(
      homeTexts.doings("client", victor),
      "Follow your invoices, run reports and look up your vendors' history, terms and W-8 forms.",
    );
    assert.equal(
      homeTexts.holdings("client", "Invoices", victor),
      "Submitted, unpaid, held and expiring invoices and their status.",
    );
    assert.equal(homeTexts.holdings("client", "Users", victor), undefined, "no user administration");
    assert.equal(
      homeTexts.holdings("client", "Security", victor),
      "Where you're signed in, the browsers that skip the code, your recent activity and your password.",
    );
    assert.equal(homeTexts.holdings("client", "Batches", victor), undefined, "no card for batches");
  });

  it("lists an area's parts apart when several open", () => {
    assert.equal(
      homeTexts.holdings("client", "Invoices", opensFor("client", "alice")),
      "Invoice entry and import; payment; the cart; pending invoices; submitted, unpaid, held and expiring invoices and their status.",
    );
  });
});

describe("what a vendor may do, on the vendor home", () => {
  it("tells a vendor of tier 1 to submit invoices, and one of tier 0 only to follow them and see payments", () => {
    assert.equal(
      homeTexts.doings("vendor", opensFor("vendor", "vera")),
      "Submit invoices to clients, follow your invoices' status and see payments received.",
    );
    const vince = opensFor("vendor", "vince");
    assert.equal(homeTexts.doings("vendor", vince), "Follow your invoices' status and see payments received.");
    assert.equal(homeTexts.holdings("vendor", "Invoices", vince), undefined);
    assert.equal(homeTexts.holdings("vendor", "Users", vince), "Switching account.");
  });

  it("says nothing when nothing opens", () => {
    assert.equal(
      homeTexts.doings("vendor", () => false),
      "",
    );
    assert.equal(
      homeTexts.holdings("vendor", "Reports", () => false),
      undefined,
    );
  });
});

describe("the words' pages", () => {
  const phrases = [
    ...Object.entries(homeTexts.phrases.doings).flatMap(([section, said]) =>
      said.map((phrase) => ({ section: section as SignedInSection, area: undefined, phrase })),
    ),
    ...Object.entries(homeTexts.phrases.holdings).flatMap(([section, areas]) =>
      Object.entries(areas).flatMap(([area, said]) =>
        said.map((phrase) => ({ section: section as SignedInSection, area: area as NavGroup, phrase })),
      ),
    ),
  ];

  it("are rows of the section's table, each area's in that area, and one phrase's all behind one gate", () => {
    assert.ok(phrases.length > 30);
    for (const { section, area, phrase } of phrases) {
      const [words, pages] = phrase;
      const rows = pages.map((page) => routes.find((row) => row.path === `/${section}${page}`));
      assert.ok(rows.length > 0 && rows.every((row) => row !== undefined), `${section}: "${words}" names its pages`);
      if (area)
        assert.ok(
          rows.every((row) => row?.group === area),
          `${section} ${area}: "${words}" in its area`,
        );
      assert.equal(new Set(rows.map((row) => row?.gate)).size, 1, `${section}: "${words}" behind one gate`);
    }
  });

  it("name every gated page the navigation lists, so no gated page is spoken of as open to all", () => {
    const named = new Set(phrases.flatMap(({ section, phrase }) => phrase[1].map((page) => `/${section}${page}`)));
    const unnamed = routes.filter((row) => row.gate && row.group && !named.has(row.path)).map((row) => row.path);
    assert.deepEqual(unnamed, []);
  });
});

describe("the home page's greeting", () => {
  it("names the user and, for a client, the company", () => {
    assert.equal(homeTexts.welcome("alice", "ACME"), "Welcome, alice of ACME.");
    assert.equal(homeTexts.welcome("vera"), "Welcome, vera.");
  });

  it("names what is known, and greets plainly when nothing is (a link sign-in)", () => {
    assert.equal(homeTexts.welcome("", "ACME"), "Welcome, ACME.");
    assert.equal(homeTexts.welcome(""), "Welcome.");
    assert.equal(homeTexts.welcome("", ""), "Welcome.");
  });
});
