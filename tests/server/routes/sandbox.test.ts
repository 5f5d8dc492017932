// The sandbox's mailbox through the portal in development (server/routes/sandbox.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { startPortal } from "#tests/support/portal.ts";

describe("the mailbox through the portal (development)", () => {
  test("its form e-mails a sign-in link and the mailbox then says so", async () => {
    const portal = await startPortal({ listen: false });
    try {
      const sent = await portal.app.inject({
        method: "POST",
        url: "/sandbox/mail/link",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "site=vendor&username=vince",
      });
      assert.equal(sent.statusCode, 303, sent.body);
      assert.equal(sent.headers.location, "/sandbox/mail?link=sent");
      const page = await portal.app.inject({ url: String(sent.headers.location) });
      assert.ok(page.body.includes("A sign-in link was e-mailed"));
    } finally {
      await portal.close();
    }
  });
});

describe("the mailbox's form and the CSRF rule", () => {
  test("another site's form cannot e-mail a sign-in link through the portal", async () => {
    const portal = await startPortal({ listen: false });
    try {
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const foreign: Record<string, string>[] = [
        { "sec-fetch-site": "cross-site" },
        { origin: "https://evil.example" },
        { origin: "null" },
      ];
      for (const headers of foreign) {
        const sent = await portal.app.inject({
          method: "POST",
          url: "/sandbox/mail/link",
          headers: { ...form, ...headers },
          payload: "site=vendor&username=vince",
        });
        assert.equal(sent.statusCode, 403, JSON.stringify(headers));
      }
      const page = await portal.app.inject({ url: "/sandbox/mail" });
      assert.ok(!page.body.includes("Your sign-in link"), "no link was e-mailed");
    } finally {
      await portal.close();
    }
  });
});
