// The new password's checks before the change call leaves: none of the common or easily guessed passwords.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { serverTexts } from "#server/texts.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { answerMessage } from "#web/api/answer.ts";

/** Passwords that meet requirements 5's rules and are still among the first an attacker tries. */
const common = ["Password123!", "P@ssw0rd1234", "Qwerty123456!", "Welcome2024!", "Password1234!", "Iloveyou123!"];
/** The sandbox's demo password and the new passwords the other tests set. */
const fine = [
  DEMO_PASSWORD,
  "Strong-Password-2026!",
  "Brand-New-Pass-2026!",
  "Brand-New-Passw0rd!",
  "Another-Pass-2026!",
  "Fresh-Start-2026!",
  "Long-Enough-2026!",
  "Petra-Fresh-2026?",
  "Victor-New-2026!",
];

describe("checkNewPassword", () => {
  it("refuses a common password with a clear message the form shows, and the upstream is never asked", async () => {
    const fake = await portalOnFake();
    try {
      const alice: PortalClient = await signIn(fake.app, accounts.alice, fake.code);
      assert.equal(
        (await alice.post("/api/web/client/password/test", { userId: "alice", password: "pw" })).status,
        200,
      );
      for (const password of common) {
        const answer = await alice.post("/api/web/client/password/change", { password });
        assert.equal(answer.status, 400, password);
        assert.equal(answer.json().code, serverTexts.commonPassword.code, password);
        assert.equal(
          answerMessage(answer.status, answer.json()),
          serverTexts.commonPassword.message,
          "the form's words",
        );
      }
      assert.equal(fake.upstream.callsTo(/password\/change/).length, 0, "no common password reached the upstream");
      // The test passed before is still unspent: another password may be tried at once.
      const changed = await alice.post("/api/web/client/password/change", { password: "Brand-New-Pass-2026!" });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(fake.upstream.callsTo(/password\/change/).length, 1);
    } finally {
      await fake.close();
    }
  });

  it("accepts the demo password and every new password the other tests set", async () => {
    const fake = await portalOnFake();
    try {
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      for (const password of fine) {
        await alice.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
        const answer = await alice.post("/api/web/client/password/change", { password });
        assert.equal(answer.status, 200, `${password}: ${answer.text}`);
      }
    } finally {
      await fake.close();
    }
  });
});
