// server/upstream/read-capped.ts: every upstream answer is read within one deadline for the whole call and a cap on
// its size, whoever reads it (an /api call, a document, the server's own calls). SECURITY.md's breaks B7 and B8.
import assert from "node:assert/strict";
import { once } from "node:events";
import { describe, it } from "node:test";
import { type Answer, happyUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { BOUND_MS, timed } from "#tests/support/failing-upstream.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { scaled } from "#tests/support/waiting.ts";
import { answerMessage } from "#web/api/answer.ts";
import { errorTexts } from "#web/texts/errors.ts";

const happy = happyUpstream();

describe("a whole-call deadline and a cap on the answer's size (SECURITY.md's breaks B7 and B8)", () => {
  it("B7: an upstream that drips one byte every 2 s is cut off at the whole-call deadline", async () => {
    const deadline = scaled(2_500);
    /** An answer whose head comes at once, then one byte every 2 s: no single wait is longer than the deadline. */
    const drip: Answer = (call, response) => {
      if (call.path.startsWith("/web/client/user-info")) return happy(call, response);
      response.writeHead(200, { "content-type": call.path.endsWith(".pdf") ? "application/pdf" : "application/json" });
      response.write(" ");
      let bytes = 1;
      const timer = setInterval(() => {
        bytes += 1;
        if (bytes < 10) response.write(" ");
        else {
          clearInterval(timer);
          response.end(call.path.endsWith(".pdf") ? "" : "{}");
        }
      }, scaled(2_000));
      response.on("close", () => clearInterval(timer));
    };
    const slow = await portalOnFake(happy, { env: { UPSTREAM_TIMEOUT_MS: String(deadline) } });
    try {
      const visitor = await signIn(slow.app, accounts.alice, slow.code);
      slow.upstream.answer = drip;
      const call = await timed(() =>
        visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" }),
      );
      assert.ok(call.elapsed < deadline + scaled(1_200), `the API call answered after ${call.elapsed.toFixed(0)} ms`);
      assert.equal(answerMessage(call.answer.status, call.answer.json()), errorTexts.actionFailed);
      const pdf = await timed(() => visitor.get("/pdfs/BankHolidays.pdf"));
      assert.ok(pdf.elapsed < deadline + scaled(1_200), `the document answered after ${pdf.elapsed.toFixed(0)} ms`);
      assert.ok(pdf.answer.status >= 500, `the document: ${pdf.answer.status}`);
    } finally {
      await slow.close();
    }
  });

  it("B8: an upstream answer over 1 MiB is a fault: read no further than the cap, no token held, and the portal keeps serving", async () => {
    const total = 64 * 1024 * 1024;
    let sent = 0;
    /** A valid JSON login answer of 64 MiB: a token, then padding. */
    const huge: Answer = async (_call, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"token":"upstream-token-0123456789","message":"Success","padding":"');
      const chunk = Buffer.alloc(64 * 1024, "a");
      for (sent = 0; sent < total && !response.destroyed; sent += chunk.length)
        if (!response.write(chunk)) await Promise.race([once(response, "drain"), once(response, "close")]);
      response.end('"}');
    };
    const big = await portalOnFake(huge);
    try {
      const visitor = new PortalClient(big.app);
      const { answer, elapsed } = await timed(() =>
        visitor.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" }),
      );
      assert.ok(answer.status >= 500, `a fault: ${answer.status} ${answer.text.slice(0, 80)}`);
      assert.equal(answerMessage(answer.status, answer.json()), errorTexts.actionFailed);
      assert.ok(sent < total, `the portal stopped reading: ${sent} of ${total} bytes were sent`);
      assert.ok(elapsed < BOUND_MS, `answered in ${elapsed.toFixed(0)} ms`);
      assert.equal((await visitor.get("/mfa")).headers.location, "/", "no token is held");
      assert.equal((await new PortalClient(big.app).get("/healthz")).status, 200);
    } finally {
      await big.close();
    }
  });
});
