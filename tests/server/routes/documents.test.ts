// A PDF is served only to the signed-in audiences whose section pages frame it (the route table says which); what the
// upstream gives instead of a PDF is requirements 8's message in the frame, never a blank or raw one.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Answer, happyUpstream, MINIMAL_PDF, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { serverTexts } from "#server/texts.ts";
import {
  assertStillServing,
  BOUND_MS,
  failingAnswers,
  stackTrace,
  TIMEOUT_MS,
  timed,
} from "#tests/support/failing-upstream.ts";
import { logCapture } from "#tests/support/log-capture.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
import { routes, sectionAudience } from "#web/routes/table.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginNotices } from "#web/texts/login-notices.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

let portal: RunningPortal;
describe("server/routes/documents", () => {
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

  describe("a document once the session has ended", () => {
    it("says why in the frame and in the tab 'Open the PDF' opened, in the portal's words, with the way back to sign in", async () => {
      const here = await signIn(portal.app, accounts.vera, portal.code);
      const there = await signIn(portal.app, accounts.vera, portal.code);
      const form = new URLSearchParams({
        session: "all",
        password: DEMO_PASSWORD,
        return: "/vendor/users/change-password",
      });
      await new PortalClient(portal.app, { islandsHeader: false }).post(END_SESSIONS_PATH, form, {
        cookie: there.cookieHeader,
      });
      const pdf = await here.get("/pdfs/BankHolidays.pdf");
      assert.equal(pdf.status, 401);
      assert.match(String(pdf.headers["content-type"]), /^text\/html/, "a page, never raw JSON");
      assert.ok(pdf.text.includes(loginNotices.endedElsewhere), pdf.text);
      assert.ok(pdf.text.includes(`<a href="/" target="_top">${mfaTexts.signInAgain}</a>`), pdf.text);
    });

    it("asks a browser that brought no session to sign in to read it", async () => {
      const pdf = await new PortalClient(portal.app).get("/pdfs/BankHolidays.pdf");
      assert.equal(pdf.status, 401);
      assert.match(String(pdf.headers["content-type"]), /^text\/html/);
      assert.ok(pdf.text.includes(serverTexts.signInToRead.message), pdf.text);
      assert.ok(pdf.text.includes('target="_top"'));
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
        // The password test reads only the status (requirements 7.2): a 200 is a success whatever its body.
        const success = /^a (200|body truncated)/.test(what);
        assert.ok(success ? call.answer.status === 200 : call.answer.status >= 500, `${what}: ${call.answer.status}`);
        assert.doesNotMatch(call.answer.text, stackTrace);
        assert.equal(fake.upstream.calls.length, 1, `${what}: one call`);
        const pdf = await timed(() => visitor.get("/pdfs/VendorLetter.pdf"));
        assert.ok(pdf.elapsed < BOUND_MS, `${what}: the document answered in ${pdf.elapsed.toFixed(0)} ms`);
        assert.ok(pdf.answer.status >= 500, `${what}: document ${pdf.answer.status}`);
        assert.doesNotMatch(pdf.answer.text, stackTrace);
      }
      await assertStillServing(fake);
      assert.equal((await visitor.get("/client/home")).status, 200, "the session survived the faults");
    });
  });

  describe("a document the upstream does not give (review F6)", () => {
    const onFake = portalsOnFakeForFile();
    const answers: Record<string, [Answer, number, string]> = {
      "a 500 in HTML": [
        (_call, response) => void response.writeHead(500, { "content-type": "text/html" }).end("<h1>Oops</h1>"),
        500,
        errorTexts.internalServerError,
      ],
      "a 404": [(_call, response) => sendJson(response, 404, { detail: "gone" }), 404, errorTexts.endpointNotFound],
      "a 503 with a detail": [
        (_call, response) => sendJson(response, 503, { detail: "Documents are being moved." }),
        503,
        "Documents are being moved.",
      ],
      "a 200 that is not a PDF": [
        (_call, response) => void response.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>"),
        502,
        errorTexts.actionFailed,
      ],
    };

    for (const [what, [answer, status, text]] of Object.entries(answers)) {
      it(`F6: ${what} shows requirements 8's message in the frame, never a raw {}`, async () => {
        const fake = await onFake();
        const alice = await signIn(fake.app, accounts.alice, fake.code);
        fake.upstream.answer = answer;
        const pdf = await alice.get("/pdfs/BankHolidays.pdf");
        assert.equal(pdf.status, status);
        assert.match(String(pdf.headers["content-type"]), /^text\/html/);
        assert.equal(pdf.headers["x-frame-options"], "SAMEORIGIN", "the page's frame may show it");
        assert.equal(
          pdf.headers["content-security-policy"],
          "default-src 'none';base-uri 'none';frame-ancestors 'self'",
          "a page of text that loads nothing, like every answer that is not a portal page",
        );
        assert.ok(pdf.text.includes(text), `${what}: ${pdf.text}`);
        assert.equal(
          pdf.text.includes(errorTexts.outage),
          status >= 500,
          `${what}: the outage sentence for a 5xx only`,
        );
        assert.notEqual(pdf.text.trim(), "{}");
      });
    }

    it("F6: a PDF labelled Application/PDF is a PDF: media types are case-insensitive", async () => {
      const fake = await onFake();
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      fake.upstream.answer = (_call, response) =>
        void response.writeHead(200, { "content-type": "Application/PDF; charset=binary" }).end(MINIMAL_PDF);
      const pdf = await alice.get("/pdfs/BankHolidays.pdf");
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers["content-type"], "application/pdf");
    });

    it("F6: a 401 ends the session and says so in the frame, with the way back to sign in", async () => {
      const fake = await onFake();
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      fake.upstream.answer = (_call, response) => sendJson(response, 401, { detail: "expired" });
      const pdf = await alice.get("/pdfs/BankHolidays.pdf");
      assert.equal(pdf.status, 401);
      assert.ok(pdf.text.includes(errorTexts.sessionExpired));
      assert.ok(pdf.text.includes('target="_top"'));
      fake.upstream.answer = happyUpstream();
      assert.equal((await alice.get("/client/home")).status, 302, "signed out");
    });

    it("F6: a fault is logged as an upstream fault, once per run of them (requirements 11.4), and its end too", async () => {
      const logs = logCapture("pdf-fault");
      const fake = await onFake(happyUpstream(), { logs: logs.stream });
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      fake.upstream.answer = (_call, response) =>
        void response.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>");
      await alice.get("/pdfs/BankHolidays.pdf");
      await alice.get("/pdfs/BankHolidays.pdf"); // the same fault again: no line of its own
      fake.upstream.answer = happyUpstream();
      assert.equal((await alice.get("/pdfs/BankHolidays.pdf")).status, 200);
      const lines = logs.lines.map((line) => JSON.parse(line) as { msg: string; operation?: string; fault?: string });
      const faults = lines.filter((line) => line.msg === "upstream fault");
      assert.deepEqual(
        faults.map((line) => [line.operation, line.fault]),
        [["getPdf", "wrong-shape"]],
      );
      assert.equal(lines.filter((line) => line.msg === "upstream answers again").length, 1);
    });
  });
});
