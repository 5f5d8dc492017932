// The route table (requirements 2) and its matcher.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "regexparam";
import { matchRoute as wouterMatch } from "wouter";
import {
  conditionOf,
  NO_GATE,
  permissionSamples,
  requirementsText,
  sampleOf,
  spec,
  specAllows,
  specOf,
} from "#tests/support/spec-routes.ts";
import { gateDescriptions } from "#web/gates.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { canonicalPath, matchRoute, pathOf, routes, sectionAudience, sectionOf } from "#web/routes/table.ts";

const row = (pattern: string): RouteEntry => {
  const found = routes.find((entry) => entry.path === pattern);
  assert.ok(found, `the table has a row ${pattern}`);
  return found;
};

describe("the requirements' route tables, as the tests read them", () => {
  it("are read from docs/requirements.md: a row added to 2.8's table is a route the tests expect, with its gate", () => {
    const added = requirementsText.replace(
      "| `reports/expiring` | Expiring report | — |\n",
      "| `reports/expiring` | Expiring report | — |\n| `reports/fx` | FX report | spotTier |\n",
    );
    assert.notEqual(added, requirementsText, "2.8 has the row the new one follows");
    const expected = specOf(added).rows.find((entry) => entry.pattern === "/client/reports/fx");
    assert.deepEqual(expected, { pattern: "/client/reports/fx", section: "client", gate: "spotTier" });
  });

  it("give each page the same gate in requirements 2's section tables and in 6's gate tables", () => {
    const gated = spec.rows.filter((entry) => entry.gate !== NO_GATE);
    assert.deepEqual(
      [...new Set(spec.gates.flatMap((gate) => gate.pages))].sort(),
      gated.map((entry) => entry.pattern).sort(),
      "6 lists exactly the pages 2 gives a gate",
    );
    const samples = permissionSamples([...gated.map((entry) => entry.gate), ...spec.gates.map((g) => g.condition)]);
    for (const entry of gated) {
      const allows = conditionOf(entry.gate, spec.fields);
      for (const permissions of samples)
        assert.equal(
          specAllows(entry.pattern, permissions),
          allows(permissions),
          `${entry.pattern}: 2 says "${entry.gate}", 6 differs for ${JSON.stringify(permissions)}`,
        );
    }
  });

  it("refuse a condition worded in a way they cannot read, or naming a field 3.3 does not list", () => {
    assert.throws(() => conditionOf("vipTier at least 1", spec.fields), /cannot read: "vipTier at least 1"/);
    assert.throws(() => conditionOf("not readOnly", spec.fields), /"readOnly", which 3.3 does not list/);
  });
});

describe("the route table", () => {
  it("has a row for every path of requirements 2.1 and 2.8–2.11, and no other", () => {
    const specPatterns = spec.rows.map((entry) => entry.pattern).sort();
    const tablePatterns = routes.map((entry) => entry.path).sort();
    assert.deepEqual(tablePatterns, specPatterns);
  });

  it("gives each row the gate the requirements' section tables give it", () => {
    for (const { pattern, gate } of spec.rows) {
      const entry = row(pattern);
      assert.equal(entry.gate ? gateDescriptions[entry.gate] : NO_GATE, gate, pattern);
    }
  });

  it("puts each row in the section its path names, and the † login routes under /uspto and /uscis in none", () => {
    for (const { pattern, section } of spec.rows) {
      assert.equal(row(pattern).section, section, pattern);
      if (section !== "public") assert.equal(pattern.split("/")[1], section, pattern);
    }
    assert.equal(matchRoute("/uspto/login")?.entry.section, "public");
    assert.equal(matchRoute("/uscis/g1450/login")?.entry.section, "public");
  });

  it("serves the patent-fee and immigration-fee sections to client users (the audience decision)", () => {
    assert.deepEqual(sectionAudience, { client: "client", vendor: "vendor", uspto: "client", uscis: "client" });
  });

  it("shows one screen where docs/requirements.md says 'the same screen': vendoralert, client-terms, the indexes, uscis' home", () => {
    const sameScreens: [string, string][] = [
      ["/vendoralert", "/register"],
      ["/vendor/client-terms", "/vendor/vip/invites"],
      ["/client", "/client/home"],
      ["/vendor", "/vendor/home"],
      ["/uspto", "/uspto/home"],
      ["/uscis", "/uscis/home"],
      ["/uscis/form-history", "/uscis/home"],
      ["/uscis/downloads", "/uscis/home"],
      ["/uscis/templates", "/uscis/home"],
    ];
    for (const [alias, original] of sameScreens) {
      const [a, o] = [row(alias), row(original)];
      assert.equal(a.sameAs, original, alias);
      assert.equal(canonicalPath(a), original, alias);
      assert.deepEqual([a.screen, a.title, a.about, a.gate], [o.screen, o.title, o.about, o.gate], alias);
      assert.equal(a.group, undefined, `${alias} is not listed twice in the navigation`);
    }
    assert.deepEqual(
      routes
        .filter((entry) => entry.sameAs)
        .map((entry) => entry.path)
        .sort(),
      sameScreens.map(([alias]) => alias).sort(),
    );
  });

  it("says what the parameterised screens show: coming-due is the expiring screen, spot and payment modes", () => {
    assert.match(row("/client/reports/coming-due").about ?? "", /expiring screen with parameter coming-due/);
    assert.match(row("/client/wires/pending").about ?? "", /pending screen in spot mode/);
    assert.match(row("/client/spot/payment").about ?? "", /Invoice entry in spot mode/);
    assert.match(row("/client/invoices/payment").about ?? "", /payment mode/);
  });

  it("shows the PDFs of 2.8 and 2.9 on the document pages", () => {
    const pdfs = routes.filter((entry) => entry.pdf).map((entry) => [entry.path, entry.pdf, entry.screen]);
    assert.deepEqual(pdfs, [
      ["/client/docs/bank-holidays", "BankHolidays.pdf", "pdf"],
      ["/client/docs/expired-policy", "ExpiringInvoicesPolicy.pdf", "pdf"],
      ["/client/docs/vendor-letter", "VendorLetter.pdf", "pdf"],
      ["/vendor/docs/bank-holidays", "BankHolidays.pdf", "pdf"],
      ["/vendor/docs/vendor-letter", "VendorLetter.pdf", "pdf"],
    ]);
  });

  it("gives every row a title, and every screen whose content docs/requirements.md does not show a sentence of its purpose", () => {
    for (const entry of routes) {
      assert.ok(entry.title.trim(), entry.path);
      if (entry.screen === "about") assert.ok(entry.about?.trim(), entry.path);
    }
  });

  it("has each pattern once, so adding a route is adding one row", () => {
    assert.equal(new Set(routes.map((entry) => entry.path.toLowerCase())).size, routes.length);
  });

  it("builds links from the table", () => {
    assert.equal(pathOf("client", "Home"), "/client/home");
    assert.equal(pathOf("vendor", "Home"), "/vendor/home");
    assert.equal(pathOf("public", "Sign In"), "/");
    assert.throws(() => pathOf("client", "No Such Screen"));
  });
});

describe("matching a path", () => {
  it("fills the route parameters of 2.10: codes/{type}, export/{type}, reports/{type}, transaction/{transactionId}", () => {
    assert.deepEqual(matchRoute("/uspto/codes/fees")?.params, { type: "fees" });
    assert.deepEqual(matchRoute("/uspto/export/csv")?.params, { type: "csv" });
    assert.deepEqual(matchRoute("/uspto/reports/daily")?.params, { type: "daily" });
    assert.deepEqual(matchRoute("/uspto/transaction/T-42")?.params, { transactionId: "T-42" });
    assert.deepEqual(matchRoute("/videos/intro")?.params, { videoId: "intro" });
    assert.deepEqual(matchRoute("/uspto/transaction/T%2042")?.params, { transactionId: "T 42" });
  });

  it("accepts one trailing slash, ignores case, and needs every parameter", () => {
    assert.equal(matchRoute("/client/home/")?.entry.path, "/client/home");
    assert.equal(matchRoute("/CLIENT/Home")?.entry.path, "/client/home");
    assert.equal(matchRoute("/client/")?.entry.path, "/client");
    assert.equal(matchRoute("/client/home//"), undefined);
    assert.equal(matchRoute("/uspto/codes"), undefined);
    assert.equal(matchRoute("/uspto/codes/a/b"), undefined);
  });

  it("finds no row for an unknown path, and tells the section it falls in", () => {
    assert.equal(matchRoute("/nowhere"), undefined);
    assert.equal(sectionOf("/nowhere"), undefined);
    assert.equal(matchRoute("/client/nowhere"), undefined);
    assert.equal(sectionOf("/client/nowhere"), "client");
    assert.equal(sectionOf("/vendor/a/b/c"), "vendor");
    assert.equal(sectionOf("/uspto/nowhere"), "uspto");
    assert.equal(sectionOf("/USCIS/nowhere"), "uscis");
    assert.equal(sectionOf("/clientele"), undefined);
    assert.equal(sectionOf("/"), undefined);
  });

  it("keeps a malformed escape as it is instead of failing", () => {
    assert.deepEqual(matchRoute("/uspto/codes/%E0%A4%A")?.params, { type: "%E0%A4%A" });
  });

  it("agrees with wouter's own matcher on every row and on paths no row has", () => {
    const paths = [
      ...routes.map((entry) => sampleOf(entry.path)),
      ...routes.map((entry) => `${sampleOf(entry.path)}/`),
      "/nowhere",
      "/client/nowhere",
      "/uspto/codes/a/b",
      "/Vendor/Home",
    ];
    for (const path of paths) {
      const wouterFirst = routes.find((entry) => wouterMatch(parse, entry.path, path)[0]);
      assert.equal(matchRoute(path)?.entry, wouterFirst, path);
    }
  });
});
