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
