// The sandbox's pages through the portal in development (server/routes/sandbox.ts): the mailbox and the reset link.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { DEMO_PASSWORD, latestMail } from "#harness/sign-in.ts";
import { startPortalInProcess } from "#tests/support/portal.ts";
import { resetForm, resetLinkPath } from "#tests/support/reset-link.ts";

const form = { "content-type": "application/x-www-form-urlencoded" };
/** What a browser says of a form another site started. */
const foreign: Record<string, string>[] = [
  { "sec-fetch-site": "cross-site" },
  { origin: "https://evil.example" },
  { origin: "null" },
];

describe("the mailbox through the portal (development)", () => {
  test("its form e-mails a sign-in link and the mailbox then says so", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const sent = await portal.app.inject({
        method: "POST",
        url: "/sandbox/mail/link",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "site=vendor&username=vince",
      });
      assert.equal(sent.statusCode, 303, sent.body);
      assert.equal(sent.headers.location, "/sandbox/mail?link=sent");
      const page = await new PortalClient(portal.app).get(String(sent.headers.location));
      assert.ok(page.text.includes("A sign-in link was e-mailed"));
    } finally {
      await portal.close();
    }
  });
});

describe("the mailbox's form and the CSRF rule", () => {
  test("another site's form cannot e-mail a sign-in link through the portal", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      for (const headers of foreign) {
        const sent = await portal.app.inject({
          method: "POST",
          url: "/sandbox/mail/link",
          headers: { ...form, ...headers },
          payload: "site=vendor&username=vince",
        });
        assert.equal(sent.statusCode, 403, JSON.stringify(headers));
      }
      const page = await new PortalClient(portal.app).get("/sandbox/mail");
      assert.ok(!page.text.includes("Your sign-in link"), "no link was e-mailed");
    } finally {
      await portal.close();
    }
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
      assert.equal(page.headers["cache-control"], "no-store");
      assert.equal(page.headers["referrer-policy"], "strict-origin");
    } finally {
      await portal.close();
    }
  });

  test("another site's form cannot set a password through the portal; the link stays unspent", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const reset = { clientShortName: "ACME", emailAddress: "alice@acme.example" };
      await new PortalClient(portal.app).post("/api/web/reset-pwd", reset);
      const path = resetLinkPath((await latestMail(portal.sandboxUrl, "alice@acme.example")).body);
      const payload = resetForm(path, "Forged-By-Them-2026!").toString();
      for (const headers of foreign) {
        const sent = await portal.app.inject({
          method: "POST",
          url: "/sandbox/reset",
          headers: { ...form, ...headers },
          payload,
        });
        assert.equal(sent.statusCode, 403, JSON.stringify(headers));
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
