// The sandbox's HTML mailbox page (sandbox/mail-page.ts): what it lists, what it says, and that it escapes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type MailPageInput, renderMailPage, sentAtText } from "#sandbox/mail-page.ts";
import type { StoredMail } from "#sandbox/mailbox.ts";
import { MAILS_SHOWN } from "#sandbox/mailbox.ts";
import { SEED_PASSWORD, seedAccounts } from "#sandbox/seed.ts";

function mail(overrides: Partial<StoredMail>): StoredMail {
  return { id: 1, to: "x@example", subject: "Subject", body: "", sentAt: "2026-01-01T00:00:00.000Z", ...overrides };
}

function page(overrides: Partial<MailPageInput>): string {
  return renderMailPage({ mails: [], accounts: [], seedPassword: SEED_PASSWORD, notice: undefined, ...overrides });
}

describe("the mailbox page", () => {
  test("the mailbox page escapes what it shows", () => {
    const html = page({ mails: [mail({ subject: "<script>alert(1)</script>", body: "a & b" })] });
    assert.ok(!html.includes("<script>") && html.includes("&lt;script&gt;") && html.includes("a &amp; b"));
  });

  test("a link in a mail can be followed, and a quote in it never leaves the link's attribute", () => {
    const html = page({ mails: [mail({ body: "Open http://portal.test/login?uuid=1&type=Client now" })] });
    const url = "http://portal.test/login?uuid=1&amp;type=Client";
    assert.ok(html.includes(`Open <a href="${url}">${url}</a> now`));
    const forged = page({ mails: [mail({ body: 'http://portal.test/"onclick="alert(1)' })] });
    assert.ok(!forged.includes('"onclick'));
    assert.ok(forged.includes("&quot;onclick=&quot;alert(1)"));
  });

  test("it counts the messages, says when there is none, and tells whether the sign-in link went out", () => {
    assert.match(page({}), /Messages \(0\)[\s\S]*<p>No mail yet\.<\/p>/);
    assert.match(page({ mails: [mail({ id: 1 }), mail({ id: 2 })] }), /Messages \(2\)/);
    const full = Array.from({ length: MAILS_SHOWN }, (_, id) => mail({ id }));
    assert.match(page({ mails: full }), /Messages \(the newest 50; older ones are not shown\)/);
    assert.match(page({ notice: "sent" }), /<p role="status">A sign-in link was e-mailed/);
    assert.match(page({ notice: "unknown" }), /<p role="status">No sandbox user has that site, company and user ID/);
    assert.doesNotMatch(page({}), /<p role="status">/);
  });

  test("a mail's time is a short line, the machine's form kept in datetime", () => {
    assert.equal(sentAtText("2026-03-02T09:00:05.123Z"), "2026-03-02 09:00:05 UTC");
    assert.ok(
      page({ mails: [mail({ sentAt: "2026-03-02T09:00:05.123Z" })] }).includes(
        '<time datetime="2026-03-02T09:00:05.123Z">2026-03-02 09:00:05 UTC</time>',
      ),
    );
  });

  test("the seed accounts' table scrolls in a region of its own, so the page keeps the screen's width", () => {
    assert.match(
      page({ accounts: seedAccounts }),
      /<div class="table-scroll" role="region" aria-labelledby="accounts-heading" tabindex="0">\s*<table>/,
    );
  });

  test("it lists each seed account with its company, a dash for a vendor, and the seed password", () => {
    const html = page({ accounts: seedAccounts });
    assert.ok(html.includes("<td>client</td><td>ACME</td><td>alice</td><td>alice@acme.example</td>"));
    assert.ok(html.includes("<td>vendor</td><td>-</td><td>vera</td>"));
    assert.ok(html.includes(`<code>${SEED_PASSWORD}</code>`));
    for (const account of seedAccounts) assert.ok(html.includes(`<option value="${account.username}">`));
  });

  test("its sign-in link form asks a client's Company Short Name, in a plain form that needs no script", () => {
    const html = page({ accounts: seedAccounts });
    const form = /<form method="post" action="\/sandbox\/mail\/link">([\s\S]*?)<\/form>/.exec(html)?.[1] ?? "";
    assert.match(form, /<label for="link-shortname">Company Short Name\s*<input id="link-shortname" name="shortname"/);
    assert.match(form, /<small id="link-shortname-hint">A client's company; a vendor has none\.<\/small>/);
    assert.doesNotMatch(form, /name="shortname"[^>]*required/, "a vendor leaves it blank");
    assert.ok(
      html.includes(
        '<datalist id="seed-companies"><option value="ACME"></option><option value="GLOBEX"></option></datalist>',
      ),
    );
    assert.equal(html.match(/<option value="alice">/g)?.length, 1, "each user ID is offered once");
    assert.doesNotMatch(html, /<script/);
  });
});
