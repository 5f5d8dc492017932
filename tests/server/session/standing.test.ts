// A session whose password expired is one state everywhere: past its MFA step it has only the change-password form,
// the sign-in's own step. Every page, that form too, frames it as signed out (no name, no Sign out);
// no other page sends a visit upstream with its token, and a section page sends it to its form.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";
import { happyUpstream } from "#harness/fake-upstream.ts";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";
import { layoutTexts } from "#web/texts/layout.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

const expiredUpstream = happyUpstream({ message: "Password Expired" });
let fake: PortalOnFake;
let carol: PortalClient;

before(async () => {
  fake = await portalOnFake(expiredUpstream);
  carol = await signIn(fake.app, accounts.alice, fake.code);
});
after(() => fake.close());

/** Visits sent upstream so far, once any queued by the pages before have had time to leave. */
async function visitsSent(): Promise<string[]> {
  await setTimeout(150);
  return fake.upstream.callsTo(/^\/web\/track$/).map((call) => JSON.parse(call.body).page as string);
}

/** The header's account and its Sign out form (the idle warning's "Sign out now" is not the frame's). */
const framedSignedIn = (html: string) => html.includes('class="sign-out"') || html.includes(layoutTexts.signedInAs);

describe("a session whose password expired, past its MFA step", () => {
  for (const path of ["/register", "/videos/1", "/approval/dashboard", "/uspto/login", "/login"]) {
    it(`${path} is framed as signed out, and the visit is not sent upstream with her token`, async () => {
      const before = (await visitsSent()).length;
      const page = await carol.get(path);
      assert.equal(page.status, 200, page.text.slice(0, 200));
      assert.equal(framedSignedIn(page.text), false, "no signed-in header, no Sign out");
      assert.equal((await visitsSent()).length, before, "no visit tracked");
    });
  }

  it("/tax-bridge/login and / send her to her form, as a section page does", async () => {
    for (const path of ["/", "/tax-bridge/login", "/client/home"]) {
      const page = await carol.get(path);
      assert.equal(page.status, 302, path);
      assert.equal(page.headers.location, "/mfa", path);
    }
  });

  it("her change-password form is the sign-in's own step: unframed, with 'Use another account'; its visit is sent", async () => {
    const form = await carol.get("/mfa");
    assert.equal(form.status, 200);
    assert.match(form.text, /data-island="change-password"/);
    assert.equal(framedSignedIn(form.text), false, "no signed-in header, no Sign out");
    assert.ok(form.text.includes(layoutTexts.idleWarning), "its idle clock runs, and the warning says so");
    assert.ok(form.text.includes(mfaTexts.useAnotherAccount), "the way out of the sign-in");
    assert.equal((await visitsSent()).at(-1), "/mfa", "requirements 4.8: her one page's visit");
  });

  it("a fully signed-in session on the same pages is framed signed in, and its visits are sent", async () => {
    const signedIn = await portalOnFake(happyUpstream());
    try {
      const alice = await signIn(signedIn.app, accounts.alice, signedIn.code);
      const page = await alice.get("/register");
      assert.equal(framedSignedIn(page.text), true);
      await setTimeout(150);
      assert.deepEqual(
        signedIn.upstream.callsTo(/^\/web\/track$/).map((call) => JSON.parse(call.body).page),
        ["/register"],
      );
    } finally {
      await signedIn.close();
    }
  });
});
