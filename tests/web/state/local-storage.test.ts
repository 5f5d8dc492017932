// What the device remembers between visits (requirements 3.5 and 5.1), on an in-memory local storage.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { MemoryStorage } from "#tests/support/memory-storage.ts";
import {
  forgetLogin,
  lastSite,
  rememberedLogin,
  rememberLogin,
  rememberSite,
  storedMfaCode,
  storeMfaCode,
} from "#web/state/local-storage.ts";

const scope = globalThis as { window?: unknown };
let storage: MemoryStorage;

describe("web/state/local-storage", () => {
  beforeEach(() => {
    storage = new MemoryStorage();
    scope.window = { localStorage: storage };
  });
  afterEach(() => {
    delete scope.window;
  });

  describe("remember me (requirements 5.1)", () => {
    it("keeps a client's company short name and user ID under shortName and userName", () => {
      rememberLogin("client", { shortName: "ACME", userName: "alice" });
      assert.deepEqual(Object.fromEntries(storage.entries), { shortName: "ACME", userName: "alice" });
      assert.deepEqual(rememberedLogin("client"), { shortName: "ACME", userName: "alice" });
    });

    it("keeps a vendor's user ID alone, under vipUserName, apart from the client's", () => {
      rememberLogin("client", { shortName: "ACME", userName: "alice" });
      rememberLogin("vendor", { shortName: "ignored", userName: "vera" });
      assert.equal(storage.getItem("vipUserName"), "vera");
      assert.deepEqual(rememberedLogin("vendor"), { shortName: "", userName: "vera" });
      assert.deepEqual(rememberedLogin("client"), { shortName: "ACME", userName: "alice" });
    });

    it("remembers nothing when no user ID is kept, so the checkbox starts unchecked", () => {
      assert.equal(rememberedLogin("client"), null);
      assert.equal(rememberedLogin("vendor"), null);
      storage.setItem("shortName", "ACME");
      storage.setItem("userName", "");
      assert.equal(rememberedLogin("client"), null);
    });

    it("gives an empty short name for a client whose user ID was kept without one", () => {
      storage.setItem("userName", "alice");
      assert.deepEqual(rememberedLogin("client"), { shortName: "", userName: "alice" });
    });

    it("forgets one site's login and leaves the other's", () => {
      rememberLogin("client", { shortName: "ACME", userName: "alice" });
      rememberLogin("vendor", { shortName: "", userName: "vera" });
      forgetLogin("client");
      assert.equal(rememberedLogin("client"), null);
      assert.deepEqual([...storage.entries.keys()], ["vipUserName"]);
      forgetLogin("vendor");
      assert.equal(storage.entries.size, 0);
    });
  });

  describe("the last site", () => {
    it("is the site kept, and null once forgotten", () => {
      assert.equal(lastSite(), null);
      rememberSite("vendor");
      assert.equal(lastSite(), "vendor");
      rememberSite(null);
      assert.equal(lastSite(), null);
      assert.equal(storage.entries.has("lastSite"), false);
    });

    it("is null when the stored value is not a site", () => {
      for (const value of ["admin", "CLIENT", "", '"client"']) {
        storage.setItem("lastSite", value);
        assert.equal(lastSite(), null, value);
      }
    });
  });

  describe("the multi-factor code of this device (requirements 4.2)", () => {
    it("is kept under requirements 3.5's key mfa-{site}-{username}, lowercased, and read back for that user", () => {
      storeMfaCode("client", "ACME", "ALICE", "12345678");
      assert.equal(storage.getItem("mfa-client-alice"), "12345678");
      assert.equal(storedMfaCode("client", "acme", "Alice"), "12345678");
      assert.equal(storedMfaCode("vendor", "", "alice"), null, "the vendor's key is another");
      assert.equal(storedMfaCode("client", "ACME", "bob"), null);
      storeMfaCode("vendor", "", "Vera", "22222222");
      assert.equal(storage.getItem("mfa-vendor-vera"), "22222222");
      assert.equal(storedMfaCode("vendor", "", "VERA"), "22222222");
    });

    it("is never sent for another company's user of the same ID: whose it is is kept beside the key", () => {
      storeMfaCode("client", "ACME", "alice", "12345678");
      assert.equal(storage.getItem("mfaCompany-client-alice"), "acme");
      assert.equal(storedMfaCode("client", "GLOBEX", "alice"), null, "GLOBEX's alice");
      storeMfaCode("client", "GLOBEX", "alice", "87654321");
      assert.equal(storage.getItem("mfa-client-alice"), "87654321", "the key holds the last accepted code");
      assert.equal(storedMfaCode("client", "ACME", "alice"), null, "ACME's alice is asked for a code again");
    });

    it("is dropped when given none (a stored code the upstream refused), but only the user's own", () => {
      storeMfaCode("client", "GLOBEX", "alice", "87654321");
      storeMfaCode("client", "ACME", "alice", null);
      assert.equal(storedMfaCode("client", "GLOBEX", "alice"), "87654321", "GLOBEX alice's code stays");
      storeMfaCode("client", "GLOBEX", "alice", null);
      assert.equal(storedMfaCode("client", "GLOBEX", "alice"), null);
      assert.equal(storage.getItem("mfa-client-alice"), null);
      assert.equal(storage.getItem("mfaCompany-client-alice"), null);
      storeMfaCode("vendor", "", "vera", "1");
      storeMfaCode("vendor", "", "vera", null);
      assert.equal(storedMfaCode("vendor", "", "vera"), null);
    });

    it("sends no client code kept under the key with no company beside it (one kept before the company was)", () => {
      storage.setItem("mfa-client-alice", "11111111");
      assert.equal(storedMfaCode("client", "ACME", "alice"), null);
      assert.equal(storedMfaCode("client", "", "alice"), null);
    });
  });

  describe("without a usable local storage", () => {
    it("remembers nothing and never throws when there is no window (the server's render)", () => {
      delete scope.window;
      rememberLogin("client", { shortName: "ACME", userName: "alice" });
      rememberSite("client");
      assert.equal(rememberedLogin("client"), null);
      assert.equal(lastSite(), null);
      assert.equal(storedMfaCode("client", "ACME", "alice"), null);
    });

    it("remembers nothing when reading local storage is refused", () => {
      scope.window = {
        get localStorage(): never {
          throw new Error("SecurityError");
        },
      };
      forgetLogin("vendor");
      storeMfaCode("vendor", "", "vera", "1");
      assert.equal(rememberedLogin("vendor"), null);
      assert.equal(storedMfaCode("vendor", "", "vera"), null);
    });

    it("costs only the convenience when a write is refused (a full storage)", () => {
      storage.setItem = () => {
        throw new Error("QuotaExceededError");
      };
      assert.doesNotThrow(() => rememberLogin("client", { shortName: "ACME", userName: "alice" }));
      assert.equal(rememberedLogin("client"), null);
    });
  });
});
