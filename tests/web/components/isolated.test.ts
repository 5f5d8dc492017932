// Names the upstream or a link gave (a user, a company) are set apart from the words around them wherever a page shows
// them: a right-to-left override in a company's name reverses that name alone, never the header, the greeting or the
// sentence that holds it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { seedAccounts } from "#sandbox/seed.ts";
import { ChangePasswordForm } from "#web/components/change-password-form.tsx";
import { Frame } from "#web/components/frame.tsx";
import { HomeScreen } from "#web/components/home-screen.tsx";
import { Isolated, isolate } from "#web/components/isolated.tsx";
import LinkLoginIsland from "#web/islands/link-login-island.tsx";
import type { PageContext } from "#web/page-context.ts";
import { routes } from "#web/routes/table.ts";

const RLO = "\u202e";
const name = `${RLO}ecila`;
const company = `${RLO}EMCA`;
const context: PageContext = {
  assets: { css: "/assets/portal.css", hydrate: "/assets/hydrate.js", islands: {}, images: {} },
  support: { phone: "+1 800 555 0100", phoneUk: "+44 20 7946 0000", email: "help@example.com" },
  providerName: "Provider",
  taxBridge: false,
  path: "/client/home",
  user: { name, site: "client", company },
  year: 2026,
};
const html = (element: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(element);

describe("a name in plain text", () => {
  it("stands between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, any isolate marks of its own taken out", () => {
    assert.equal(isolate(name), `\u2068${name}\u2069`);
    assert.equal(isolate("a\u2069\u202eb\u2066"), "\u2068a\u202eb\u2069", "it cannot end its isolation early");
    assert.equal(isolate(""), "", "no name stays none");
  });
});

describe("a name in markup", () => {
  it("is drawn inside <bdi>, the words around it as they are", () => {
    assert.equal(html(createElement(Isolated, { text: `Welcome, ${isolate(name)}.` })), `Welcome, <bdi>${name}</bdi>.`);
    assert.equal(html(createElement(Isolated, { text: "No name here." })), "No name here.");
  });

  it("in the header's chip, the user and the company each in a <bdi>, and the chip's title isolates them", () => {
    // biome-ignore lint/correctness/noChildrenProp: createElement in a .ts file, the frame around no page
    const page = html(createElement(Frame, { context, children: null }));
    assert.match(page, new RegExp(`<span class="account-user"><bdi>${name}</bdi></span>`));
    assert.match(page, new RegExp(`<span class="account-company"><bdi>${company}</bdi></span>`));
    assert.match(page, new RegExp(`title="\u2068${name}\u2069 · \u2068${company}\u2069 · `));
  });

  it("in the home's greeting", () => {
    const seed = seedAccounts.find((account) => account.site === "client" && account.username === "alice");
    const entry = routes.find((row) => row.section === "client" && row.screen === "home");
    assert.ok(seed && entry);
    const page = html(
      createElement(HomeScreen, {
        context,
        section: "client",
        entry,
        permissions: { loaded: true, ...seed.permissions },
      }),
    );
    assert.match(page, new RegExp(`Welcome, <bdi>${name}</bdi> of <bdi>${company}</bdi>\\.`));
  });

  it("on the change-password form, whose hidden user ID field keeps the name as it is", () => {
    const page = html(createElement(ChangePasswordForm, { userName: name, redirect: false }));
    assert.match(page, new RegExp(`<strong><bdi>${name}</bdi></strong>`));
    assert.match(page, new RegExp(`name="username" value="${name}"`));
  });

  it("on a sign-in link's page, naming the session it would replace", () => {
    const page = html(
      createElement(LinkLoginIsland, { uuid: "abc", site: "client", current: { name, site: "client", company } }),
    );
    assert.match(page, new RegExp(`You are signed in as <bdi>${name}</bdi>, <bdi>${company}</bdi>\\.`));
  });
});
