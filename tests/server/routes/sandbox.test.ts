// The sandbox's pages through the portal in development (server/routes/sandbox.ts): the mailbox and the reset link.
import assert from "node:assert/strict";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, latestMail, mailboxCode, signIn } from "#harness/sign-in.ts";
import { NOT_A_FORM } from "#sandbox/http.ts";
import { personOf } from "#server/account/person.ts";
import type { AccountState } from "#server/context.ts";
import { formFields, RELAYED_BYTES, relayedPolicy, sandboxRoutes } from "#server/routes/sandbox.ts";
import { sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { assertRefusedPage } from "#tests/support/refused-page.ts";
import { resetForm, resetLinkPath } from "#tests/support/reset-link.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0";

/** A page's own form posts without the islands' header. */
const formPoster = (app: FastifyInstance) => new PortalClient(app, { islandsHeader: false });
const linkForm = () => new URLSearchParams({ site: "vendor", username: "vince" });
/** What a browser says of a form another site started. */
const foreign: Record<string, string>[] = [
  { "sec-fetch-site": "cross-site" },
  { origin: "https://evil.example" },
  { origin: "null" },
];

describe("the mailbox through the portal (development)", () => {
  test("?to= shows one recipient's mail only, so others' mail cannot push it out of the page", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", { site: "vendor", username: "vince" });
      await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", { site: "vendor", username: "vera" });
      const page = await new PortalClient(portal.app).get("/sandbox/mail?to=vince%40vendor.example");
      assert.equal(page.status, 200);
      assert.ok(page.text.includes("<dd>vince@vendor.example</dd>"), page.text);
      assert.ok(!page.text.includes("<dd>vera@vendor.example</dd>"));
      assert.ok(page.text.includes('name="to" type="email" value="vince@vendor.example"'));
    } finally {
      await portal.close();
    }
  });

  test("its form e-mails a sign-in link and the mailbox then says so", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const sent = await formPoster(portal.app).post("/sandbox/mail/link", linkForm());
      assert.equal(sent.status, 303, sent.text);
      assert.equal(sent.headers.location, "/sandbox/mail?link=sent");
      const page = await new PortalClient(portal.app).get(String(sent.headers.location));
      assert.ok(page.text.includes("A sign-in link was e-mailed"));
    } finally {
      await portal.close();
    }
  });
});

describe("the mailbox's form for a client", () => {
  test("e-mails GLOBEX alice her own link when her company is named, not ACME alice", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const form = new URLSearchParams({ site: "client", shortname: "GLOBEX", username: "alice" });
      const sent = await formPoster(portal.app).post("/sandbox/mail/link", form);
      assert.equal(sent.headers.location, "/sandbox/mail?link=sent", sent.text);
      const mail = await latestMail(portal.sandboxUrl, accounts.globexAlice.email);
      assert.equal(mail.subject, "Your sign-in link");
      const acme = await new PortalClient(portal.app).get(`/sandbox/mail?to=${accounts.alice.email}`);
      assert.ok(!acme.text.includes("Your sign-in link"), "nothing went to ACME alice");
    } finally {
      await portal.close();
    }
  });
});

describe("the mailbox's form and the CSRF rule", () => {
  test("another site's form cannot e-mail a sign-in link through the portal, and is refused with the portal's page", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      for (const headers of foreign) {
        const sent = await formPoster(portal.app).post("/sandbox/mail/link", linkForm(), headers);
        // The same page as the portal's own forms are refused with, never a bare JSON answer.
        assertRefusedPage(sent, `/sandbox/mail/link ${JSON.stringify(headers)}`);
      }
      const page = await new PortalClient(portal.app).get("/sandbox/mail");
      assert.ok(!page.text.includes("Your sign-in link"), "no link was e-mailed");
    } finally {
      await portal.close();
    }
  });
});

describe("a relayed page's policy", () => {
  const own =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";
  const hash = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";

  test("is the pages' own, with only the scripts the sandbox's policy names by their hash", () => {
    assert.equal(relayedPolicy(null), own);
    assert.equal(relayedPolicy("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"), own);
    assert.equal(
      relayedPolicy(`default-src 'none'; script-src ${hash}; form-action 'self'`),
      `${own}; script-src ${hash}`,
    );
  });

  test("never takes a host, a nonce, 'self', 'unsafe-inline' or any other directive from it", () => {
    const wide = `script-src 'unsafe-inline' 'self' https://evil.example 'nonce-abc' ${hash} 'strict-dynamic'; img-src *`;
    assert.equal(relayedPolicy(wide), `${own}; script-src ${hash}`);
    assert.equal(relayedPolicy("script-src 'unsafe-inline' *"), own);
  });
});

describe("the password-reset page through the portal", () => {
  test("comes with the pages' headers: no script, no framing elsewhere, not cached, its address never a referrer", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const reset = { clientShortName: "", emailAddress: "vera@vendor.example" };
      await new PortalClient(portal.app).post("/api/web/reset-pwd", reset);
      const path = resetLinkPath((await latestMail(portal.sandboxUrl, "vera@vendor.example")).body);
      const page = await new PortalClient(portal.app).get(path);
      assert.equal(page.status, 200, page.text);
      assert.match(String(page.headers["content-security-policy"]), /default-src 'none'.*form-action 'self'/);
      assert.match(String(page.headers["content-security-policy"]), /frame-ancestors 'self'/);
      // The reset form's one script, by its hash (sandbox/reset-page.ts), and no other.
      assert.match(String(page.headers["content-security-policy"]), /; script-src 'sha256-[\w+/]+=*'$/);
      assert.equal(page.headers["cache-control"], "no-store");
      assert.equal(page.headers["referrer-policy"], "strict-origin");
    } finally {
      await portal.close();
    }
  });

  test("another site's form cannot set a password through the portal and is refused with the portal's page; the link stays unspent", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const reset = { clientShortName: "ACME", emailAddress: "alice@acme.example" };
      await new PortalClient(portal.app).post("/api/web/reset-pwd", reset);
      const path = resetLinkPath((await latestMail(portal.sandboxUrl, "alice@acme.example")).body);
      const fields = resetForm(path, "Forged-By-Them-2026!");
      for (const headers of foreign) {
        const sent = await formPoster(portal.app).post("/sandbox/reset", fields, headers);
        assertRefusedPage(sent, `/sandbox/reset ${JSON.stringify(headers)}`);
      }
      assert.equal((await new PortalClient(portal.app).get(path)).status, 200, "the link still opens its form");
      const login = { shortname: "ACME", username: "alice", password: DEMO_PASSWORD };
      const answer = await new PortalClient(portal.app).post("/api/auth/client", login);
      assert.equal(answer.json().message, "Success", "the password is unchanged");
    } finally {
      await portal.close();
    }
  });
});

describe("what the sandbox's forms take through the portal", () => {
  test("a JSON body (an array, a nested object, a plain object) is refused with 415, never a 500", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      for (const path of ["/sandbox/mail/link", "/sandbox/reset"])
        for (const body of [[1, 2], { site: { nested: true } }, { site: "vendor", username: "vince" }]) {
          const answer = await new PortalClient(portal.app).post(path, body);
          assert.equal(answer.status, 415, `${path} ${JSON.stringify(body)}: ${answer.text}`);
        }
      const page = await new PortalClient(portal.app).get("/sandbox/mail");
      assert.ok(!page.text.includes("Your sign-in link"), "no link was e-mailed");
    } finally {
      await portal.close();
    }
  });

  test("the media type decides first, as on the sandbox: malformed or empty JSON, an invalid form type: its 415", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const cases = [
        { type: "application/json", payload: "{bad" },
        { type: "application/json", payload: "" },
        { type: "application/x-www-form-urlencoded;;;", payload: "site=vendor&username=vince" },
        { type: "text/plain", payload: "x" },
      ];
      for (const url of ["/sandbox/mail/link", "/sandbox/reset"])
        for (const { type, payload } of cases) {
          const answer = await portal.app.inject({
            method: "POST",
            url,
            payload,
            headers: { "content-type": type, "sec-fetch-site": "same-origin" },
          });
          assert.equal(answer.statusCode, 415, `${url} ${type} ${payload}: ${answer.body}`);
          assert.match(answer.headers["content-type"] ?? "", /^application\/json/);
          assert.deepEqual(answer.json(), NOT_A_FORM);
        }
    } finally {
      await portal.close();
    }
  });

  test("a repeated form field reaches the sandbox as each of its values", () => {
    assert.equal(
      formFields({ site: "vendor", username: ["vince", "vera"], n: 1 }).toString(),
      "site=vendor&username=vince&username=vera",
    );
    assert.equal(formFields([1, 2]).toString(), "");
  });
});

describe("what the relay holds", () => {
  /** The relay alone, in front of a sandbox that answers as `answer` does. */
  async function relayTo(answer: (response: ServerResponse) => void, timeoutMs = 5_000) {
    const sandbox = createServer((_request, response) => answer(response));
    await new Promise<void>((resolve) => sandbox.listen(0, "127.0.0.1", resolve));
    const { port } = sandbox.address() as AddressInfo;
    const app = Fastify({ logger: false });
    await app.register(sandboxRoutes, { sandboxUrl: `http://127.0.0.1:${port}`, timeoutMs });
    return {
      get: (path: string) => app.inject({ method: "GET", url: path }),
      close: async () => {
        await app.close();
        sandbox.closeAllConnections();
        await new Promise((resolve) => sandbox.close(resolve));
      },
    };
  }

  test("an answer up to its cap is passed whole; an endless one is dropped as soon as it passes the cap", async () => {
    const exact = await relayTo((response) => response.end("x".repeat(RELAYED_BYTES)));
    try {
      assert.equal((await exact.get("/sandbox/mail")).body.length, RELAYED_BYTES);
    } finally {
      await exact.close();
    }
    let written = 0;
    const endless = await relayTo((response) => {
      const more = () => {
        while (!response.destroyed && response.write(Buffer.alloc(64 * 1024))) written++;
        if (!response.destroyed) response.once("drain", more);
      };
      more();
    });
    try {
      const page = await endless.get("/sandbox/mail");
      assert.equal(page.statusCode, 502);
      assert.equal(page.body, "The sandbox's answer is too large to relay.");
      assert.ok(written * 64 * 1024 < 64 * RELAYED_BYTES, `the sandbox wrote ${written} chunks before it was cut off`);
    } finally {
      await endless.close();
    }
  });

  test("a sandbox that never answers is given up at the deadline, with a clear message", async () => {
    const silent = await relayTo(() => {}, 200);
    try {
      const page = await silent.get("/sandbox/mail");
      assert.equal(page.statusCode, 504);
      assert.equal(page.body, "The sandbox did not answer. Please try again.");
    } finally {
      await silent.close();
    }
  });
});

describe("a reset through the portal ends the old password's sessions at once", () => {
  test("every signed-in browser is signed out at its next request, unlisted at once, and the activity says so", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const browsers = [WINDOWS_CHROME, MAC_FIREFOX].map((userAgent) => {
        const client = new PortalClient(portal.app);
        client.headers = { "user-agent": userAgent };
        return client;
      });
      const signedIn = [];
      for (const browser of browsers)
        signedIn.push(await signIn(browser, accounts.alice, mailboxCode(portal.sandboxUrl)));
      for (const other of signedIn) assert.equal((await other.get("/client/home")).status, 200, "signed in before");
      const reset = { clientShortName: "ACME", emailAddress: "alice@acme.example" };
      await new PortalClient(portal.app).post("/api/web/reset-pwd", reset);
      const path = resetLinkPath((await latestMail(portal.sandboxUrl, "alice@acme.example")).body);
      const done = await formPoster(portal.app).post("/sandbox/reset", resetForm(path, "Reset-Fresh-2026!"));
      assert.equal(done.status, 303, done.text);
      assert.equal(done.headers["x-sandbox-password-reset"], undefined, "the sandbox's note is not passed on");

      const person = personOf({ site: "client", company: "ACME", userName: "alice" });
      const { sessions } = await portal.app.ledger.of(person);
      assert.deepEqual(
        sessions.filter(([, record]) => record.auth.stage === "signed-in").map(([, record]) => record.ended?.reason),
        ["password-reset", "password-reset"],
        'every session ended: none left for "Where you\'re signed in"',
      );
      const account = portal.app.account as AccountState;
      const activity = (await account.activity.recent(person)).events;
      assert.ok(
        activity.some((record) => record.event === "password.reset"),
        activity.map(({ event }) => event).join(", "),
      );
      assert.deepEqual(
        activity
          .filter((record) => record.event === "session-ended.password-reset")
          .map(({ device, address }) => [device, address])
          .sort(),
        [
          ["Chrome on Windows", "127.0.0.1"],
          ["Firefox on macOS", "127.0.0.1"],
        ],
        "one event per ended session, naming where it was signed in",
      );
      for (const other of signedIn) {
        const next = await other.get("/client/home");
        assert.equal(next.status, 302, "the old session's next page is the sign-in");
      }
    } finally {
      await portal.close();
    }
  });
});
