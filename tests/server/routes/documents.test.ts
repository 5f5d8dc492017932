// A PDF is served only to the signed-in audiences whose section pages frame it (the route table says which).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import {
  assertStillServing,
  BOUND_MS,
  failingAnswers,
  stackTrace,
  TIMEOUT_MS,
  timed,
} from "#tests/support/failing-upstream.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
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

describe("a document from a failing upstream", () => {
  /** A portal on a fake upstream, closed after the file's tests. */
  const onFake = portalsOnFakeForFile();

  it("14. faults: signed-in calls, pages and documents meeting a failing upstream answer in bounded time", async () => {
    const fake = await onFake(undefined, { env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
    const visitor = await signIn(fake.app, accounts.alice, fake.code);
    for (const [what, answer] of Object.entries(failingAnswers)) {
      fake.upstream.answer = answer;
      fake.upstream.calls.length = 0;
      const call = await timed(() =>
        visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" }),
      );
      assert.ok(call.elapsed < BOUND_MS, `${what}: the API call answered in ${call.elapsed.toFixed(0)} ms`);
      assert.ok(call.answer.status >= 500, `${what}: ${call.answer.status}`);
      assert.doesNotMatch(call.answer.text, stackTrace);
      assert.equal(fake.upstream.calls.length, 1, `${what}: one call`);
      const pdf = await timed(() => visitor.get("/pdfs/VendorLetter.pdf"));
      assert.ok(pdf.elapsed < BOUND_MS, `${what}: the document answered in ${pdf.elapsed.toFixed(0)} ms`);
      assert.ok([502, 504].includes(pdf.answer.status), `${what}: document ${pdf.answer.status}`);
      assert.doesNotMatch(pdf.answer.text, stackTrace);
    }
    await assertStillServing(fake);
    assert.equal((await visitor.get("/client/home")).status, 200, "the session survived the faults");
  });
});
