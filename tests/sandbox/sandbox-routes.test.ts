// The sandbox's own routes under /sandbox/ (sandbox/sandbox-routes.ts): the mailbox, sign-in links by mail,
// and the levers tests pull on users' tokens and permissions.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { components } from "#openapi/schema.ts";
import { NOT_A_FORM } from "#sandbox/http.ts";
import { PORTAL_URL, type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

type Schemas = components["schemas"];

let sandbox: SandboxUnderTest;
describe("sandbox/sandbox-routes", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  const form = { contentType: "application/x-www-form-urlencoded" };

  describe("sign-in links by mail", () => {
    test("a sign-in link is e-mailed as the portal's /login URL with the uuid and the type Vendor or Client", async () => {
      const vendor = await sandbox.linkLogin("vendor", "vince");
      assert.equal(vendor.url, `${PORTAL_URL}/login?uuid=${vendor.uuid}&type=Vendor`);
      const [mail] = await sandbox.mailsTo("vince@vendor.example");
      assert.ok(mail?.body.includes(vendor.url));
      const client = await sandbox.linkLogin("client", "alice");
      assert.equal(client.url, `${PORTAL_URL}/login?uuid=${client.uuid}&type=Client`);
    });

    test("an unknown user cannot get a link: 404 Not Found", async () => {
      const unknown = await sandbox.call("POST", "/sandbox/link-login", {
        body: { site: "vendor", username: "nobody" },
      });
      assert.deepEqual([unknown.status, unknown.body], [404, { detail: "Not Found" }]);
    });

    test("the mailbox page's form e-mails a sign-in link and redirects back with 303", async () => {
      const before = (await sandbox.mailsTo("vera@vendor.example")).length;
      const answer = await sandbox.call("POST", "/sandbox/mail/link", { ...form, raw: "site=vendor&username=vera" });
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.get("location"), "/sandbox/mail?link=sent");
      assert.equal((await sandbox.mailsTo("vera@vendor.example")).length, before + 1);
    });

    test("the mailbox page's form e-mails a client's link to the user of the company named, and a vendor's with the field blank, the blanks around a name not counted", async () => {
      const counts = async () =>
        Promise.all(
          ["alice@acme.example", "alice@globex.example", "vince@vendor.example"].map(
            async (to) => (await sandbox.mailsTo(to)).length,
          ),
        );
      const [acme, globex, vince] = await counts();
      const sent = async (raw: string) => {
        const answer = await sandbox.call("POST", "/sandbox/mail/link", { ...form, raw });
        assert.deepEqual([answer.status, answer.headers.get("location")], [303, "/sandbox/mail?link=sent"], raw);
      };
      await sent("site=client&shortname=GLOBEX&username=alice");
      assert.deepEqual(await counts(), [acme, (globex ?? 0) + 1, vince], "GLOBEX alice's mailbox, not ACME alice's");
      await sent("site=client&shortname=+acme+&username=alice+");
      await sent("site=vendor&shortname=+&username=+vince+");
      assert.deepEqual(await counts(), [(acme ?? 0) + 1, (globex ?? 0) + 1, (vince ?? 0) + 1]);
      const [mail] = await sandbox.mailsTo("alice@globex.example");
      assert.match(mail?.body ?? "", /\/login\?uuid=[^&\s]+&type=Client/);
      const unknown = await sandbox.call("POST", "/sandbox/mail/link", {
        ...form,
        raw: "site=client&shortname=INITECH&username=alice",
      });
      assert.equal(unknown.headers.get("location"), "/sandbox/mail?link=unknown", "no such company's alice");
    });

    test("the mailbox page's form for an unknown user or site sends nothing and redirects back saying so", async () => {
      const before = (await sandbox.call<unknown[]>("GET", "/sandbox/mail.json")).body.length;
      for (const raw of ["site=vendor&username=nobody", "site=admin&username=alice", "username=alice"]) {
        const answer = await sandbox.call("POST", "/sandbox/mail/link", { ...form, raw });
        assert.deepEqual([answer.status, answer.headers.get("location")], [303, "/sandbox/mail?link=unknown"], raw);
      }
      assert.equal((await sandbox.call<unknown[]>("GET", "/sandbox/mail.json")).body.length, before);
    });
  });

  describe("the mailbox's form, throttled per address", () => {
    test("after 5 sign-in links to one user within 10 minutes it sends nothing and says so; later it sends again", async () => {
      const post = () => sandbox.call("POST", "/sandbox/mail/link", { ...form, raw: "site=client&username=gary" });
      sandbox.clock.advance(60 * 60_000);
      const before = (await sandbox.mailsTo("gary@globex.example")).length;
      const answers = [];
      for (let i = 0; i < 7; i++) answers.push((await post()).headers.get("location"));
      assert.deepEqual(answers, [
        ...Array(5).fill("/sandbox/mail?link=sent"),
        "/sandbox/mail?link=throttled",
        "/sandbox/mail?link=throttled",
      ]);
      assert.equal((await sandbox.mailsTo("gary@globex.example")).length, before + 5);
      const page = await sandbox.call<string>("GET", "/sandbox/mail?link=throttled");
      assert.match(page.body, /Enough sign-in links went to that user lately; nothing was sent/);
      const other = await sandbox.call("POST", "/sandbox/mail/link", { ...form, raw: "site=vendor&username=vince" });
      assert.equal(other.headers.get("location"), "/sandbox/mail?link=sent", "another address is not throttled");
      sandbox.clock.advance(10 * 60_000);
      assert.equal((await post()).headers.get("location"), "/sandbox/mail?link=sent");
    });
  });

  describe("what the sandbox's forms take", () => {
    test("the mailbox's and the reset page's forms refuse any body but form fields with 415, never a 500", async () => {
      for (const path of ["/sandbox/mail/link", "/sandbox/reset"])
        for (const raw of ["[1,2]", '{"site":{"a":1}}', '{"site":"vendor","username":"vera"}'])
          assert.equal((await sandbox.call("POST", path, { raw })).status, 415, `${path} ${raw}`);
      assert.equal((await sandbox.call("POST", "/sandbox/reset", { contentType: "text/plain", raw: "x" })).status, 415);
    });

    test("the media type decides first: a malformed or empty JSON body and an invalid form type are all the same 415", async () => {
      const cases = [
        { contentType: "application/json", raw: "{bad" },
        { contentType: "application/json", raw: "" },
        { contentType: "application/x-www-form-urlencoded;;;", raw: "site=vendor&username=vince" },
      ];
      for (const path of ["/sandbox/mail/link", "/sandbox/reset"])
        for (const options of cases) {
          const answer = await sandbox.call("POST", path, options);
          assert.deepEqual([answer.status, answer.body], [415, NOT_A_FORM], `${path} ${JSON.stringify(options)}`);
        }
    });
  });

  describe("the mailbox page", () => {
    test("?to= lists one recipient's mail only and keeps the address in its filter form", async () => {
      await sandbox.linkLogin("vendor", "vince");
      await sandbox.linkLogin("vendor", "vera");
      const page = await sandbox.call<string>("GET", "/sandbox/mail?to=VERA%40vendor.example");
      assert.ok(page.body.includes("<dd>vera@vendor.example</dd>"));
      assert.ok(!page.body.includes("<dd>vince@vendor.example</dd>"));
      assert.ok(page.body.includes('<form method="get" action="/sandbox/mail">'));
    });

    test("the mailbox page explains itself and lists the mail, as a page no one caches", async () => {
      await sandbox.linkLogin("client", "alice");
      const page = await sandbox.call<string>("GET", "/sandbox/mail?link=sent");
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      assert.equal(page.headers.get("cache-control"), "no-store");
      assert.ok(page.body.includes("mailbox of the portal's sandbox upstream"));
      assert.ok(page.body.includes('action="/sandbox/mail/link"'));
      assert.ok(page.body.includes("Your sign-in link"));
      assert.ok(page.body.includes("A sign-in link was e-mailed"));
    });
  });

  describe("levers on users", () => {
    test("revoking a user's tokens makes them answer 401", async () => {
      const token = await sandbox.verifiedByLink("vendor", "vera");
      const revoke = await sandbox.call<{ revoked: number }>("POST", "/sandbox/tokens/revoke", {
        body: { site: "vendor", username: "vera" },
      });
      assert.ok(revoke.body.revoked >= 1);
      assert.equal((await sandbox.call("GET", "/web/vendor/user-info", { token })).status, 401);
      const again = await sandbox.call<{ revoked: number }>("POST", "/sandbox/tokens/revoke", {
        body: { site: "vendor", username: "vera" },
      });
      assert.deepEqual(again.body, { revoked: 0 }, "only live tokens are counted");
    });

    test("the sandbox can change part of a user's permissions, and refuses unknown users and bad values", async () => {
      const answer = await sandbox.call<Schemas["UserInfo"]>("PUT", "/sandbox/users/vendor/-/vince/permissions", {
        body: { userTier: "1", beneServices: ["60562"] },
      });
      assert.equal(answer.status, 200);
      const token = await sandbox.verifiedByLink("vendor", "vince");
      const info = await sandbox.call<Schemas["UserInfo"]>("GET", "/web/vendor/user-info", { token });
      assert.deepEqual([info.body.userTier, info.body.beneServices, info.body.isAdmin], ["1", ["60562"], false]);
      const gary = await sandbox.call("PUT", "/sandbox/users/client/globex/gary/permissions", {
        body: { vipTier: "3" },
      });
      assert.equal(gary.status, 200);
      assert.equal((await sandbox.call("PUT", "/sandbox/users/client/-/gary/permissions", { body: {} })).status, 404);
      const high = await sandbox.call("PUT", "/sandbox/users/client/ACME/alice/permissions", {
        body: { vipTier: "high" },
      });
      assert.equal(high.status, 400);
      const power = await sandbox.call("PUT", "/sandbox/users/client/ACME/alice/permissions", { body: { power: 1 } });
      assert.equal(power.status, 400);
    });

    test("a refused permission change says why and changes nothing; loaded is taken and dropped", async () => {
      const path = "/sandbox/users/client/ACME/alice/permissions";
      const refused = await sandbox.call<Schemas["ErrorAnswer"]>("PUT", path, { body: { vipTier: "1", power: 1 } });
      assert.equal(refused.status, 400);
      assert.deepEqual(Object.values(refused.body.errors ?? {}), ["This field is not accepted."]);
      const wrong = await sandbox.call<Schemas["ErrorAnswer"]>("PUT", path, { body: { clientServices: [7] } });
      assert.equal(typeof wrong.body.errors?.["clientServices.0"], "string", JSON.stringify(wrong.body));
      const kept = await sandbox.call<Schemas["UserInfo"]>("PUT", path, { body: { loaded: false } });
      assert.equal(kept.status, 200);
      assert.equal(kept.body.loaded, true);
      assert.equal(kept.body.vipTier, "2", "the refused patch set nothing");
    });
  });
});
