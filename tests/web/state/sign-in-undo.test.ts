// Remember me for a sign-in waiting for its code, and "Use another account" putting the device back as it was
// (docs/decisions.md), on in-memory local and session storages.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { MemoryStorage } from "#tests/support/memory-storage.ts";
import { lastSite, rememberedLogin, rememberLogin, rememberSite } from "#web/state/local-storage.ts";
import { forgetPending, keepPending, rememberPending } from "#web/state/sign-in-undo.ts";

const scope = globalThis as { window?: unknown };
let tab: MemoryStorage;

describe("web/state/sign-in-undo", () => {
  beforeEach(() => {
    tab = new MemoryStorage();
    scope.window = { localStorage: new MemoryStorage(), sessionStorage: tab };
    // What this device remembered before the sign-in: bob of ACME, and a vendor sign-in last.
    rememberLogin("client", { shortName: "ACME", userName: "bob" });
    rememberSite("vendor");
  });
  afterEach(() => {
    delete scope.window;
  });

  const alice = { shortName: "GLOBEX", userName: "alice" };

  describe("a sign-in whose MFA step opened", () => {
    it("remembers its IDs and its site when Remember me was checked", () => {
      rememberPending("client", "alice", alice);
      assert.deepEqual(rememberedLogin("client"), alice);
      assert.equal(lastSite(), "client");
    });

    it("forgets the site's saved IDs when Remember me was not checked", () => {
      rememberPending("client", "alice", null);
      assert.equal(rememberedLogin("client"), null);
      assert.equal(lastSite(), "client");
    });

    it("keeps what it replaced in the tab's storage, never a password", () => {
      rememberPending("client", "alice", alice);
      assert.deepEqual(JSON.parse(tab.getItem("signInUndo") ?? "null"), {
        site: "client",
        userName: "alice",
        login: { shortName: "ACME", userName: "bob" },
        lastSite: "vendor",
      });
    });

    it("still remembers when the tab's storage is refused", () => {
      scope.window = {
        localStorage: new MemoryStorage(),
        get sessionStorage(): never {
          throw new Error("SecurityError");
        },
      };
      rememberPending("vendor", "vera", { shortName: "", userName: "vera" });
      assert.deepEqual(rememberedLogin("vendor"), { shortName: "", userName: "vera" });
      assert.equal(lastSite(), "vendor");
    });
  });

  describe("Use another account", () => {
    it("puts back the login and the site the device remembered before this sign-in", () => {
      rememberPending("client", "alice", alice);
      forgetPending("client", "alice");
      assert.deepEqual(rememberedLogin("client"), { shortName: "ACME", userName: "bob" });
      assert.equal(lastSite(), "vendor");
      assert.equal(tab.getItem("signInUndo"), null);
    });

    it("forgets a remembered login that was the account cancelled, whatever its case", () => {
      rememberLogin("client", { shortName: "GLOBEX", userName: "Alice" });
      rememberPending("client", "alice", alice);
      forgetPending("client", "alice");
      assert.equal(rememberedLogin("client"), null);
    });

    it("puts nothing back from another sign-in's record, and forgets the cancelled account", () => {
      rememberPending("client", "alice", alice);
      forgetPending("client", "carol");
      assert.deepEqual(rememberedLogin("client"), alice);
      assert.equal(lastSite(), "client");
      rememberPending("client", "alice", alice);
      forgetPending("client", "ALICE");
      assert.equal(rememberedLogin("client"), null);
    });

    it("ignores a record that is not JSON, or not of the expected shape, and removes it", () => {
      const broken = [
        "{not json",
        "null",
        '"client"',
        JSON.stringify({ site: "admin", userName: "alice", login: null, lastSite: null }),
        JSON.stringify({ site: "client", userName: 7, login: null, lastSite: null }),
        JSON.stringify({ site: "client", userName: "alice", login: { userName: "bob" }, lastSite: null }),
        JSON.stringify({ site: "client", userName: "alice", login: null, lastSite: "CLIENT" }),
        JSON.stringify({ site: "client", userName: "alice", login: null }),
      ];
      for (const record of broken) {
        rememberLogin("client", { shortName: "ACME", userName: "bob" });
        rememberSite("vendor");
        tab.setItem("signInUndo", record);
        forgetPending("client", "alice");
        assert.deepEqual(rememberedLogin("client"), { shortName: "ACME", userName: "bob" }, record);
        assert.equal(lastSite(), "vendor", record);
        assert.equal(tab.getItem("signInUndo"), null, record);
      }
    });
  });

  describe("a code that passed", () => {
    it("drops the record, so the device keeps this account", () => {
      rememberPending("client", "alice", alice);
      keepPending();
      assert.equal(tab.getItem("signInUndo"), null);
      assert.deepEqual(rememberedLogin("client"), alice);
      assert.equal(lastSite(), "client");
    });
  });
});
