// The lines a developer reads when the portal starts on its sandbox (sandbox/banner.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sandboxBanner } from "#sandbox/banner.ts";
import { SEED_PASSWORD } from "#sandbox/seed.ts";

describe("the sandbox banner", () => {
  test("it names the portal's address, an account that signs in with the seed password, and where the mail is", () => {
    const lines = sandboxBanner("http://localhost:3000").split("\n");
    assert.ok(lines.includes("  Open      http://localhost:3000"));
    assert.ok(lines.includes(`  Sign in   CLIENT tab, company ACME, user alice, password ${SEED_PASSWORD}`));
    assert.ok(lines.some((line) => line.startsWith("  Mail      http://localhost:3000/sandbox/mail ")));
  });

  test("an address given with a trailing slash still gives a mailbox address with a single slash", () => {
    const banner = sandboxBanner("https://portal.example/");
    assert.ok(banner.includes("https://portal.example/sandbox/mail "), banner);
    assert.ok(!banner.includes("//sandbox"));
  });

  test("it starts and ends on an empty line, so it stands apart from the log lines around it", () => {
    const lines = sandboxBanner("http://localhost:3000").split("\n");
    assert.equal(lines[0], "");
    assert.equal(lines.at(-1), "");
  });
});
