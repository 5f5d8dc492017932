// The login page's state (requirements 2.2 and 4.1): the active tab, what the page shows, the held sign-in.
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import {
  activeSite,
  dropSignIn,
  holdSignIn,
  mode,
  type PendingSignIn,
  pageError,
  pendingSignIn,
  seedLoginPage,
  tokenHeld,
  typeValues,
  valuesOf,
} from "#web/state/login-page.ts";

const vera: PendingSignIn = { site: "vendor", company: "", userName: "vera", loginMessage: "Success" };

describe("web/state/login-page", () => {
  beforeEach(() => seedLoginPage({}));

  describe("the login page's seed", () => {
    it("opens CLIENT on its login form, with no error and no token held", () => {
      assert.equal(activeSite.value, "client");
      assert.equal(mode.value, "login");
      assert.equal(pageError.value, null);
      assert.equal(tokenHeld.value, false);
    });

    it("opens the site the navigation state carries, with its error", () => {
      seedLoginPage({ activeSite: "vendor", error: "Your session has expired. Please Login again" });
      assert.equal(activeSite.value, "vendor");
      assert.equal(mode.value, "login");
      assert.equal(pageError.value, "Your session has expired. Please Login again");
    });

    it("opens the MFA step on a held sign-in's site, whatever site was asked", () => {
      seedLoginPage({ activeSite: "client", pending: vera });
      assert.equal(activeSite.value, "vendor");
      assert.equal(mode.value, "mfa");
      assert.equal(tokenHeld.value, true);
    });

    it("opens on the reset panel when the page was opened on it", () => {
      seedLoginPage({ activeSite: "vendor", reset: true });
      assert.equal(activeSite.value, "vendor");
      assert.equal(mode.value, "reset");
    });

    it("keeps the IDs of a login form sent back by the server on its site, never a password", () => {
      seedLoginPage({ activeSite: "vendor", typed: { shortName: "", userName: "vera", remember: true } });
      assert.deepEqual(valuesOf("vendor"), { shortName: "", userName: "vera", password: "", remember: true });
      assert.equal(valuesOf("client").userName, "");
    });

    it("starts again from nothing, so one page's state never reaches the next", () => {
      seedLoginPage({ pending: vera, error: "Invalid Login" });
      typeValues("client", { userName: "alice" });
      seedLoginPage({});
      assert.equal(pendingSignIn.value, null);
      assert.equal(pageError.value, null);
      assert.equal(valuesOf("client").userName, "");
    });
  });

  describe("the typed values", () => {
    it("are empty before a site's form first opens", () => {
      assert.deepEqual(valuesOf("vendor"), { shortName: "", userName: "", password: "", remember: false });
    });

    it("change one field at a time and stay with their site, so switching tabs keeps them", () => {
      typeValues("client", { shortName: "ACME" });
      typeValues("client", { userName: "alice", remember: true });
      typeValues("vendor", { userName: "vera" });
      assert.deepEqual(valuesOf("client"), { shortName: "ACME", userName: "alice", password: "", remember: true });
      assert.deepEqual(valuesOf("vendor"), { shortName: "", userName: "vera", password: "", remember: false });
    });
  });

  describe("a sign-in", () => {
    it("held: the MFA step replaces the form, the error goes, and the tabs are disabled", () => {
      seedLoginPage({ error: "Invalid Login" });
      holdSignIn(vera);
      assert.equal(mode.value, "mfa");
      assert.equal(pageError.value, null);
      assert.deepEqual(pendingSignIn.value, vera);
      assert.equal(tokenHeld.value, true);
    });

    it("dropped: back to the login form with the message, and the tabs enabled again", () => {
      typeValues("vendor", { userName: "vera", password: "typed-Secret-2026!" });
      holdSignIn(vera);
      dropSignIn("Your session has expired. Please Login again");
      assert.equal(valuesOf("vendor").password, "", "the password of the ended sign-in is not kept");
      assert.equal(valuesOf("vendor").userName, "vera", "the user ID is");
      assert.equal(mode.value, "login");
      assert.equal(pageError.value, "Your session has expired. Please Login again");
      assert.equal(tokenHeld.value, false);
    });
  });
});
