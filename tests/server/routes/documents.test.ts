// A PDF is served only to the signed-in audiences whose section pages frame it (the route table says which).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";

let portal: RunningPortal;
before(async () => {
  portal = await startPortalInProcess({ listen: false });
});
after(() => portal.close());

const files = ["BankHolidays.pdf", "ExpiringInvoicesPolicy.pdf", "VendorLetter.pdf"];

describe("who may read a PDF", () => {
  it("a vendor reads the vendors' documents, never the clients' Expiring Invoices Policy", async () => {
    const vera = await signIn(portal.app, accounts.vera, portal.code);
    assert.equal((await vera.get("/pdfs/BankHolidays.pdf")).status, 200);
    assert.equal((await vera.get("/pdfs/VendorLetter.pdf")).status, 200);
    const policy = await vera.get("/pdfs/ExpiringInvoicesPolicy.pdf");
    assert.equal(policy.status, 403);
    assert.deepEqual(policy.json(), { detail: "Access Denied" });
  });

  it("each audience reads exactly the PDFs its own section's pages frame", async () => {
    const visitors: [string, PortalClient][] = [
      ["client", await signIn(portal.app, accounts.alice, portal.code)],
      ["vendor", await signIn(portal.app, accounts.vera, portal.code)],
    ];
    for (const [site, visitor] of visitors) {
      for (const file of files) {
        const framed = routes.some(
          (entry) => entry.pdf === file && entry.section !== "public" && sectionAudience[entry.section] === site,
        );
        const answer = await visitor.get(`/pdfs/${file}`);
        assert.equal(answer.status, framed ? 200 : 403, `${site} ${file}`);
        if (framed) assert.equal(answer.headers["content-type"], "application/pdf");
      }
    }
  });
});
