// The sandbox's device memory (sandbox/mfa-devices.ts, through sandbox/sessions.ts and the validate route): a passed
// code passes again silently only from the device whose id the portal sent; a typed code is the one mailed for this
// sign-in, once.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { openDatabase } from "#sandbox/db.ts";
import { MAX_DEVICES_PER_USER, passedOnDevice, rememberOnDevice } from "#sandbox/mfa-devices.ts";
import { MINUTE, type SandboxUnderTest, startSandboxUnderTest } from "#tests/support/sandbox-calls.ts";

const LAPTOP = "laptop-device-id-0001";
const SHARED_PC = "shared-pc-device-0002";
const PASSED = [{ text: "Passed" }];
const FAILED = [{ text: "Failed" }];

let sandbox: SandboxUnderTest;
describe("sandbox/mfa-devices", () => {
  before(async () => {
    sandbox = await startSandboxUnderTest();
  });
  after(() => sandbox.close());

  /** A sign-in of alice's whose mailed code passes from `device`: the code the device now remembers. */
  async function passedOn(device: string | undefined): Promise<string> {
    await sandbox.verifiedBySignIn("client", "alice", "alice@acme.example", undefined, device);
    return sandbox.latestCode("alice@acme.example");
  }

  describe("a passed code passes again silently", () => {
    test("from the device it passed on, at each later sign-in", async () => {
      const code = await passedOn(LAPTOP);
      for (let signIn = 0; signIn < 2; signIn++) {
        const token = await sandbox.unverifiedToken("client", "alice");
        assert.deepEqual((await sandbox.validate("client", token, code, LAPTOP)).body, PASSED);
        assert.equal((await sandbox.call("GET", "/web/client/user-info", { token })).status, 200);
      }
    });

    test("never from another device, nor from a browser the portal sends no id for", async () => {
      const code = await passedOn(LAPTOP);
      const elsewhere = await sandbox.unverifiedToken("client", "alice");
      assert.deepEqual((await sandbox.validate("client", elsewhere, code, SHARED_PC)).body, FAILED);
      const noDevice = await sandbox.unverifiedToken("client", "alice");
      assert.deepEqual((await sandbox.validate("client", noDevice, code)).body, FAILED);
      assert.equal((await sandbox.call("GET", "/web/client/user-info", { token: elsewhere })).status, 401);
    });

    test("only the code the device passed last: an older one it passed is forgotten", async () => {
      const older = await passedOn(LAPTOP);
      const newer = await passedOn(LAPTOP);
      const token = await sandbox.unverifiedToken("client", "alice");
      if (older !== newer) assert.deepEqual((await sandbox.validate("client", token, older, LAPTOP)).body, FAILED);
      assert.deepEqual((await sandbox.validate("client", token, newer, LAPTOP)).body, PASSED);
    });
  });

  describe("a typed code", () => {
    test("is the one mailed for this sign-in, accepted once, and then remembered for the device it passed on", async () => {
      const token = await sandbox.unverifiedToken("client", "alice");
      await sandbox.generate("client", token);
      const code = await sandbox.latestCode("alice@acme.example");
      assert.deepEqual((await sandbox.validate("client", token, code, SHARED_PC)).body, PASSED);
      const again = await sandbox.unverifiedToken("client", "alice");
      assert.deepEqual((await sandbox.validate("client", again, code, LAPTOP)).body, FAILED, "spent, elsewhere");
      assert.deepEqual((await sandbox.validate("client", again, code, SHARED_PC)).body, PASSED, "remembered there");
    });

    test("without a device id passes once and is remembered nowhere", async () => {
      const code = await passedOn(undefined);
      const token = await sandbox.unverifiedToken("client", "alice");
      assert.deepEqual((await sandbox.validate("client", token, code)).body, FAILED);
    });

    test("mailed for another sign-in of the same user does not pass this one, even unspent", async () => {
      const other = await sandbox.unverifiedToken("client", "alice");
      await sandbox.generate("client", other);
      const code = await sandbox.latestCode("alice@acme.example");
      const token = await sandbox.unverifiedToken("client", "alice");
      assert.deepEqual((await sandbox.validate("client", token, code, LAPTOP)).body, FAILED);
      assert.deepEqual((await sandbox.validate("client", other, code, LAPTOP)).body, PASSED);
    });

    test("past its 10 minutes does not pass, from any device", async () => {
      const token = await sandbox.unverifiedToken("client", "alice");
      await sandbox.generate("client", token);
      const code = await sandbox.latestCode("alice@acme.example");
      sandbox.clock.advance(10 * MINUTE);
      assert.deepEqual((await sandbox.validate("client", token, code, LAPTOP)).body, FAILED);
    });
  });

  describe("the device id", () => {
    test("that is not 16 to 64 letters, digits, - or _ is a bad request, and counts no failure", async () => {
      const token = await sandbox.unverifiedToken("client", "alice");
      await sandbox.generate("client", token);
      const code = await sandbox.latestCode("alice@acme.example");
      for (const device of ["short", "x".repeat(65), "laptop device id 01", "laptop-device-id-01,other-device-id-02"]) {
        const answer = await sandbox.validate("client", token, code, device);
        assert.equal(answer.status, 400, device);
      }
      assert.deepEqual((await sandbox.validate("client", token, code, LAPTOP)).body, PASSED);
    });

    test("memory keeps a user's most recent devices, and is kept by the SHA-256 of each id", () => {
      const db = openDatabase(":memory:");
      const userId = Number(
        db
          .prepare(
            `INSERT INTO users (site, shortname, username, email, password_hash, login_message, permissions)
             VALUES ('client', 'ACME', 'alice', 'a@b', 'h', 'Success', '{}')`,
          )
          .run().lastInsertRowid,
      );
      const devices = Array.from({ length: MAX_DEVICES_PER_USER + 1 }, (_, index) => `device-number-${1000 + index}`);
      devices.forEach((device, index) => {
        rememberOnDevice(db, userId, device, "123456", index);
      });
      assert.equal(passedOnDevice(db, userId, devices[0] ?? "", "123456"), false, "the oldest is forgotten");
      assert.equal(passedOnDevice(db, userId, devices.at(-1) ?? "", "123456"), true);
      assert.equal(passedOnDevice(db, userId, devices.at(-1) ?? "", "654321"), false);
      const stored = db
        .prepare("SELECT device_hash FROM mfa_devices")
        .all()
        .map((row) => String(row.device_hash));
      assert.equal(stored.length, MAX_DEVICES_PER_USER);
      assert.ok(stored.every((hash) => /^[0-9a-f]{64}$/.test(hash) && !devices.includes(hash)));
      db.close();
    });
  });
});
