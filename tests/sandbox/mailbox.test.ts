// The sandbox's outgoing mail (sandbox/mailbox.ts): kept in its database, listed newest first, by recipient.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { openDatabase } from "#sandbox/db.ts";
import { createMailbox, MAILS_KEPT, MAILS_SHOWN, type StoredMail } from "#sandbox/mailbox.ts";
import { MINUTE, type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

let sandbox: SandboxUnderTest;
describe("sandbox/mailbox", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  describe("the mailbox over HTTP", () => {
    test("mail.json lists mails newest first, filtered by recipient without regard to case", async () => {
      for (const [site, username] of [
        ["vendor", "vera"],
        ["client", "alice"],
        ["vendor", "vera"],
        ["vendor", "vince"],
        ["client", "gary"],
        ["vendor", "vera"],
      ] as const) {
        await sandbox.linkLogin(site, username);
        sandbox.clock.advance(MINUTE);
      }
      const all = (await sandbox.call<StoredMail[]>("GET", "/sandbox/mail.json")).body;
      assert.ok(all.length > 5);
      const times = all.map((mail) => mail.sentAt);
      assert.deepEqual(times, [...times].sort().reverse());
      const vera = await sandbox.mailsTo("VERA@vendor.example");
      assert.equal(vera.length, 3);
      assert.ok(vera.every((mail) => mail.to === "vera@vendor.example"));
    });
  });

  describe("the mailbox itself", () => {
    test("a mail is stored with an id and the time by the sandbox's clock, and whoever listens hears of it", () => {
      const db = openDatabase(":memory:");
      const heard: StoredMail[] = [];
      const mailbox = createMailbox(
        db,
        () => Date.parse("2026-03-02T09:00:00.000Z"),
        (mail) => heard.push(mail),
      );
      const sent = mailbox.send({ to: "a@example.test", subject: "Hello", body: "Line one\nLine two" });
      assert.deepEqual(sent, {
        id: sent.id,
        to: "a@example.test",
        subject: "Hello",
        body: "Line one\nLine two",
        sentAt: "2026-03-02T09:00:00.000Z",
      });
      assert.ok(Number.isInteger(sent.id));
      assert.deepEqual(heard, [sent]);
      assert.deepEqual(mailbox.list(), [sent]);
      db.close();
    });

    test("mails sent at the same moment are listed newest first too, and a recipient with no mail gets none", () => {
      const db = openDatabase(":memory:");
      const mailbox = createMailbox(db, () => 0);
      const subjects = ["first", "second", "third"];
      for (const subject of subjects) mailbox.send({ to: "B@Example.test", subject, body: "" });
      assert.deepEqual(
        mailbox.list("b@example.test").map((mail) => mail.subject),
        ["third", "second", "first"],
      );
      assert.deepEqual(mailbox.list("c@example.test"), []);
      assert.deepEqual(mailbox.list("b@example"), [], "the recipient is matched whole, not as a prefix");
      db.close();
    });
  });

  describe("the mailbox's size", () => {
    test("it lists the newest 50 mails, all or to one address, and keeps the newest 500", () => {
      const db = openDatabase(":memory:");
      let clock = 0;
      const mailbox = createMailbox(db, () => ++clock);
      for (let i = 1; i <= MAILS_KEPT + 10; i++) mailbox.send({ to: "a@b.example", subject: `mail ${i}`, body: "" });
      assert.equal(MAILS_SHOWN, 50);
      const shown = mailbox.list();
      assert.equal(shown.length, MAILS_SHOWN);
      assert.equal(shown[0]?.subject, `mail ${MAILS_KEPT + 10}`);
      assert.equal(mailbox.list("A@B.example").length, MAILS_SHOWN);
      assert.equal(db.prepare("SELECT count(*) AS n FROM mails").get()?.n, MAILS_KEPT);
      db.close();
    });
  });
});
