// The sandbox's one-time password-reset links (sandbox/reset-links.ts): what a token stands for, and what
// spending it changes.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { SandboxDb } from "#sandbox/db.ts";
import { hashToken } from "#sandbox/passwords.ts";
import {
  findResetLink,
  issueResetLink as issueOrThrottled,
  RESET_LINK_LIFETIME_MS,
  RESET_LINKS_PER_LIFETIME,
  spendResetLink,
} from "#sandbox/reset-links.ts";
import { findSession, issueToken } from "#sandbox/sessions.ts";
import { updatePassword } from "#sandbox/users.ts";
import { seededDatabase, seedUser } from "#tests/support/sandbox-db.ts";

const NOW = Date.parse("2026-03-02T09:00:00.000Z");

let db: SandboxDb;

/** A link that must be issued (not throttled). */
function issueResetLink(db: SandboxDb, userId: number, now: number): string {
  const token = issueOrThrottled(db, userId, now);
  assert.ok(token, "issued, not throttled");
  return token;
}
describe("sandbox/reset-links", () => {
  before(async () => {
    db = await seededDatabase();
  });
  after(() => db.close());

  describe("issuing and reading a link", () => {
    test("a new link is pending for its user, and reading it, however often, does not spend it", () => {
      const gary = seedUser(db, { site: "client", shortname: "GLOBEX", username: "gary" });
      const token = issueResetLink(db, gary.id, NOW);
      for (let read = 0; read < 3; read++) {
        const link = findResetLink(db, token, NOW);
        assert.equal(link.state, "pending");
        assert.equal(link.state === "pending" && link.user.username, "gary");
      }
    });

    test("only the token's SHA-256 is stored, so the database's copy opens nothing", () => {
      const vera = seedUser(db, { site: "vendor", username: "vera" });
      const token = issueResetLink(db, vera.id, NOW);
      const stored = db.prepare("SELECT token_hash FROM reset_links WHERE user_id = ?").get(vera.id);
      assert.deepEqual({ ...stored }, { token_hash: hashToken(token) });
      assert.equal(findResetLink(db, hashToken(token), NOW).state, "unknown");
    });

    test("a link works until a moment before 30 minutes, then is expired", () => {
      const vince = seedUser(db, { site: "vendor", username: "vince" });
      const token = issueResetLink(db, vince.id, NOW);
      assert.equal(findResetLink(db, token, NOW + RESET_LINK_LIFETIME_MS - 1).state, "pending");
      assert.equal(findResetLink(db, token, NOW + RESET_LINK_LIFETIME_MS).state, "expired");
      assert.equal(RESET_LINK_LIFETIME_MS, 30 * 60_000);
    });

    test("a newer link leaves the older one valid, each for its own 30 minutes; a token never issued opens nothing", () => {
      const paula = seedUser(db, { site: "client", shortname: "ACME", username: "paula" });
      const older = issueResetLink(db, paula.id, NOW);
      const newer = issueResetLink(db, paula.id, NOW + 60_000);
      assert.notEqual(older, newer);
      assert.equal(findResetLink(db, older, NOW + 60_000).state, "pending");
      assert.equal(findResetLink(db, newer, NOW + 60_000).state, "pending");
      assert.equal(findResetLink(db, older, NOW + RESET_LINK_LIFETIME_MS).state, "expired");
      assert.equal(findResetLink(db, newer, NOW + RESET_LINK_LIFETIME_MS).state, "pending");
      assert.equal(findResetLink(db, "A".repeat(43), NOW).state, "unknown");
    });

    test("an account gets at most 5 links within 30 minutes; those issued stay valid, and a later request gets one", () => {
      const gary = seedUser(db, { site: "client", shortname: "GLOBEX", username: "gary" });
      const start = NOW + 10 * RESET_LINK_LIFETIME_MS;
      const issued = Array.from({ length: RESET_LINKS_PER_LIFETIME }, (_, i) => issueResetLink(db, gary.id, start + i));
      assert.equal(RESET_LINKS_PER_LIFETIME, 5);
      assert.equal(issueOrThrottled(db, gary.id, start + 10), undefined, "the sixth is throttled");
      for (const token of issued) assert.equal(findResetLink(db, token, start + 10).state, "pending");
      assert.ok(issueOrThrottled(db, gary.id, start + RESET_LINK_LIFETIME_MS), "the oldest left the window");
      const vince = seedUser(db, { site: "vendor", username: "vince" });
      assert.ok(issueOrThrottled(db, vince.id, start + 10), "another account is not throttled by gary's");
    });

    test("a deactivated user's link opens nothing", () => {
      const dora = seedUser(db, { site: "client", shortname: "ACME", username: "dora" });
      assert.equal(findResetLink(db, issueResetLink(db, dora.id, NOW), NOW).state, "unknown");
    });
  });

  describe("spending a link", () => {
    test("it sets the password, ends the account's expiry, its sessions and its other links, and is then used", () => {
      const petra = seedUser(db, { site: "vendor", username: "petra" });
      assert.equal(petra.loginMessage, "Password Expired");
      const session = issueToken(db, petra.id, NOW, true);
      const token = issueResetLink(db, petra.id, NOW);
      const other = issueResetLink(db, petra.id, NOW);
      assert.equal(spendResetLink(db, token, "new-hash", NOW).state, "pending");
      assert.equal(findResetLink(db, other, NOW).state, "used");
      const after = seedUser(db, { site: "vendor", username: "petra" });
      assert.deepEqual([after.passwordHash, after.loginMessage], ["new-hash", "Success"]);
      assert.equal(findSession(db, session, NOW), undefined);
      assert.equal(findResetLink(db, token, NOW).state, "used");
    });

    test("a link that is not pending changes nothing: not the password, not the sessions", () => {
      const alice = seedUser(db, { site: "client", shortname: "ACME", username: "alice" });
      const token = issueResetLink(db, alice.id, NOW);
      assert.equal(spendResetLink(db, token, "first-hash", NOW).state, "pending");
      updatePassword(db, alice.id, "chosen-since", "Success");
      const session = issueToken(db, alice.id, NOW, true);
      assert.equal(spendResetLink(db, token, "second-hash", NOW).state, "used");
      const late = issueResetLink(db, alice.id, NOW);
      assert.equal(spendResetLink(db, late, "late-hash", NOW + RESET_LINK_LIFETIME_MS).state, "expired");
      assert.equal(seedUser(db, { site: "client", shortname: "ACME", username: "alice" }).passwordHash, "chosen-since");
      assert.ok(findSession(db, session, NOW));
    });
  });
});
