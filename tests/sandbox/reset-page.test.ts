// The sandbox's password-reset pages (sandbox/reset-page.ts): the form a link opens, and why a link is refused.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { escapeHtml } from "#sandbox/html.ts";
import {
  refusalTexts,
  renderRefusedLink,
  renderResetDone,
  renderResetForm,
  sessionsAfterReset,
} from "#sandbox/reset-page.ts";
import { PERMISSIONS_TTL_MS } from "#server/permissions.ts";

const PORTAL = "http://localhost:3293";
const texts = refusalTexts(`${PORTAL}/`);

import { requirements } from "#web/password-rules.ts";

describe("the reset form", () => {
  test("it names the user, carries the token in a hidden field and lists every password rule", () => {
    const html = renderResetForm({ username: "gary", token: "abc_DEF-123" });
    assert.ok(html.includes("For user <strong>gary</strong>."));
    assert.ok(html.includes('<input type="hidden" name="token" value="abc_DEF-123">'));
    assert.ok(html.includes('<form method="post" action="/sandbox/reset">'));
    for (const rule of requirements) assert.ok(html.includes(`<li>${escapeHtml(rule.label)}</li>`), rule.id);
    assert.doesNotMatch(html, /<p role="alert"/);
  });

  test("a refused try shows its reason as an alert the new-password field is described by", () => {
    const html = renderResetForm({ username: "gary", token: "t", problem: "New and confirm password do not match." });
    assert.ok(html.includes('<p role="alert" id="reset-problem">New and confirm password do not match.</p>'));
    assert.ok(html.includes('aria-describedby="reset-problem password-rules"'));
  });

  test("what the form shows is escaped: a user name, a token or a reason cannot add markup", () => {
    const html = renderResetForm({ username: "<b>x</b>", token: '"><script>', problem: "<i>why</i>" });
    assert.ok(!html.includes("<b>x</b>") && !html.includes('"><script>') && !html.includes("<i>why</i>"));
    assert.ok(html.includes('value="&quot;&gt;&lt;script&gt;"'));
  });
});

describe("after the form", () => {
  test("the page after a relayed reset says the password changed and the old sessions ended", () => {
    const html = renderResetDone(PORTAL, true);
    assert.match(html, /<h1>Your password has been changed<\/h1>/);
    assert.match(html, /Sessions opened with the old one have been signed out\./);
    assert.ok(html.includes(`<a href="${PORTAL}/">Go to the sign-in page</a>`));
  });

  test("a sandbox run alone says what happens: sessions end at their next call, within the portal's cache age", () => {
    const html = renderResetDone(PORTAL, false);
    assert.doesNotMatch(html, /have been signed out/);
    assert.ok(html.includes(sessionsAfterReset(false)));
    assert.match(sessionsAfterReset(false), new RegExp(`up to ${PERMISSIONS_TTL_MS / 60_000} minutes`));
    assert.ok(html.includes(`<a href="${PORTAL}/">Go to the sign-in page</a>`));
  });

  test("the not-valid page never says a newer request voids an older link: each link works on its own", () => {
    assert.doesNotMatch(texts.unknown, /newer|newest|replaces/);
    assert.match(texts.unknown, /Each mailed link works on its own/);
  });

  test("each refused link says why, the expired one how long a link works, and all how to ask again", () => {
    assert.match(texts.expired, /a link works for 30 minutes/);
    for (const reason of ["used", "expired", "unknown"] as const) {
      const html = renderRefusedLink(reason, PORTAL);
      assert.ok(html.includes(`<p role="alert">${texts[reason]}</p>`), reason);
      assert.ok(texts[reason].includes(`"Reset Password" on the <a href="${PORTAL}/">sign-in page</a>`), reason);
    }
  });
});
