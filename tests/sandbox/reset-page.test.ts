// The sandbox's password-reset pages (sandbox/reset-page.ts): the form a link opens, and why a link is refused.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { escapeHtml } from "#sandbox/html.ts";
import {
  refusalTexts,
  renderRefusedLink,
  renderResetDone,
  renderResetForm,
  resetFormScript,
  resetProblemOf,
  resetProblems,
  sessionsAfterReset,
} from "#sandbox/reset-page.ts";
import { PERMISSIONS_TTL_MS } from "#server/account/permissions.ts";
import { serverTexts } from "#server/texts.ts";
import { requirements } from "#web/password-rules.ts";
import { brand } from "#web/texts/document-title.ts";
import { passwordTexts } from "#web/texts/password.ts";

const PORTAL = "http://localhost:3293";
const texts = refusalTexts(`${PORTAL}/`);
/** The brand's link in a page's header, to the portal's sign-in page. */
const brandLink = `<a class="brand" href="${PORTAL}/">`;

describe("the reset form", () => {
  test("it names the user, carries the token in a hidden field and lists every password rule, with its pattern", () => {
    const html = renderResetForm({ username: "gary", token: "abc_DEF-123", portalUrl: PORTAL });
    assert.ok(html.includes("For user <strong>gary</strong>."));
    assert.ok(html.includes('<input type="hidden" name="token" value="abc_DEF-123">'));
    assert.ok(html.includes('<form method="post" action="/sandbox/reset" class="reset-form">'));
    for (const rule of requirements) {
      assert.ok(html.includes(`data-pattern="${escapeHtml(rule.pattern)}"`), rule.id);
      const words = rule.label.split(": ")[0]?.replace(/\(\S+\)/, "") ?? "";
      assert.ok(html.includes(escapeHtml(words)), rule.id);
    }
    assert.equal(
      html.match(new RegExp(`> ${escapeHtml(passwordTexts.notMet).replace(/[()]/g, "\\$&")}<`, "g"))?.length,
      5,
    );
    assert.doesNotMatch(html, /<p role="alert"/);
  });

  test("it wears the portal's brand, and 'Show passwords' waits hidden for the script that makes it work", () => {
    const html = renderResetForm({ username: "gary", token: "t", portalUrl: PORTAL });
    assert.ok(html.includes(`<header class="site-header">`) && html.includes(brandLink));
    assert.ok(html.includes(`<span>${brand}</span>`));
    assert.match(html, /<label for="show-passwords" class="check-row" hidden>/);
    assert.ok(html.includes(`${resetFormScript.html}\n</body>`), "the script, after the content");
  });

  test("its script is named by the SHA-256 of exactly its text, and is plain ASCII so the hash is of what is sent", () => {
    const code = resetFormScript.html.slice("<script>".length, -"</script>".length);
    assert.equal(resetFormScript.source, `'sha256-${createHash("sha256").update(code).digest("base64")}'`);
    assert.match(code, /^[\x20-\x7e\n]*$/);
    assert.doesNotMatch(code, /<\/|<!--/);
  });

  test("a refused try shows its reason as an alert the new-password field is described by", () => {
    const html = renderResetForm({ username: "gary", token: "t", portalUrl: PORTAL, problem: "mismatch" });
    assert.ok(html.includes('<p role="alert" id="reset-problem">New and confirm password do not match.</p>'));
    assert.ok(html.includes('aria-describedby="reset-problem password-rules"'));
  });

  test("the reason comes as a short code from the page's address, each in the words the form's checks use", () => {
    assert.equal(resetProblems.mismatch, passwordTexts.mismatch);
    assert.equal(resetProblems["too-short"], passwordTexts.tooShort);
    assert.equal(resetProblems.weak, passwordTexts.weak);
    assert.equal(resetProblems.common, serverTexts.commonPassword.message);
    assert.equal(resetProblems["new-missing"], "New Password is required.");
    assert.equal(resetProblems["confirm-too-long"], "Confirm Password must be at most 256 characters.");
    for (const code of Object.keys(resetProblems)) {
      assert.equal(resetProblemOf(code), code);
      assert.match(code, /^[a-z-]+$/, "a code an address carries as it is");
    }
    for (const other of ["", "MISMATCH", "toString", "__proto__", "<i>why</i>", ["mismatch"], undefined])
      assert.equal(resetProblemOf(other), undefined, String(other));
  });

  test("what the form shows is escaped: a user name or a token cannot add markup", () => {
    const html = renderResetForm({
      username: "<b>x</b>",
      token: '"><script>',
      portalUrl: PORTAL,
      problem: "weak",
    });
    assert.ok(!html.includes("<b>x</b>") && !html.includes('"><script>'));
    assert.ok(html.includes('value="&quot;&gt;&lt;script&gt;"'));
  });
});

describe("after the form", () => {
  test("the page after a relayed reset says the password changed and the old sessions ended", () => {
    const html = renderResetDone(PORTAL, true);
    assert.ok(html.includes(brandLink), "the portal's brand");
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
      assert.ok(html.includes(brandLink), `${reason}: the portal's brand`);
      assert.ok(html.includes(`<p role="alert">${texts[reason]}</p>`), reason);
      assert.ok(texts[reason].includes(`"Reset Password" on the <a href="${PORTAL}/">sign-in page</a>`), reason);
    }
  });
});
