// After sign-in, the page first asked for (when the user may open it); the tax-bridge landing falls back to
// the home page when its gate is shut; the browser's own icon request never uses up a notice; plain http explains itself.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { sessionCodec } from "#tests/support/session-codec.ts";
import { loginNotices } from "#web/texts/login-notices.ts";

let portal: RunningPortal;
let taxBridge: RunningPortal;
before(async () => {
  portal = await startPortalInProcess({ listen: false });
  taxBridge = await startPortalInProcess({ listen: false, env: { TAX_BRIDGE: "true" } });
});
after(async () => {
  await portal.close();
  await taxBridge.close();
});

const landing = async (visitor: PortalClient, target?: string) => {
  const answer = await visitor.get(`/session/landing${target ? `?return=${encodeURIComponent(target)}` : ""}`);
  assert.equal(answer.status, 303);
  return answer.headers.location;
};

describe("after sign-in, the page first asked for", () => {
  it("a signed-out person who opens a section page is sent to sign in, and the sign-in page carries the page", async () => {
    const visitor = new PortalClient(portal.app);
    const answer = await visitor.get("/vendor/reports/invoices");
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.location, "/?return=%2Fvendor%2Freports%2Finvoices");
    const login = await visitor.get(String(answer.headers.location));
    assert.ok(login.text.includes("/session/landing?return=%2Fvendor%2Freports%2Finvoices"), "the island lands there");
    assert.ok(login.text.includes('"activeSite":"VENDOR"'), "on the vendor tab, the page's audience");
  });

  it("lands there when the gate lets the user in, and on the home page when it does not", async () => {
    const vera = await signIn(portal.app, accounts.vera, portal.code); // user tier 1
    const vince = await signIn(portal.app, accounts.vince, portal.code); // user tier 0
    assert.equal(await landing(vera, "/vendor/invoice/rejected"), "/vendor/invoice/rejected");
    assert.equal(await landing(vince, "/vendor/invoice/rejected"), "/vendor/home");
    assert.equal(await landing(vera, "/vendor/reports/invoices?page=2"), "/vendor/reports/invoices?page=2");
    assert.equal(await landing(vera), "/vendor/home");
  });

  it("only a path of this site, in the user's own section", async () => {
    const vera = await signIn(portal.app, accounts.vera, portal.code);
    for (const target of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/client/home", "/nowhere"])
      assert.equal(await landing(vera, target), "/vendor/home", target);
  });

  it("a signed-out landing is the sign-in page", async () => {
    assert.equal(await landing(new PortalClient(portal.app), "/vendor/home"), "/");
  });
});

describe("tax-bridge mode", () => {
  it("lands on 2.7's landing when its gate opens, and falls back to the home page when it is shut", async () => {
    assert.equal(await landing(await signIn(taxBridge.app, accounts.vera, taxBridge.code)), "/vendor/invoice/due");
    assert.equal(
      await landing(await signIn(taxBridge.app, accounts.vince, taxBridge.code)),
      "/vendor/home",
      "never Access Denied at once",
    );
    assert.equal(
      await landing(await signIn(taxBridge.app, accounts.alice, taxBridge.code)),
      "/client/submission/report",
    );
    assert.equal(await landing(await signIn(taxBridge.app, accounts.gary, taxBridge.code)), "/client/home");
  });
});

describe("notices", () => {
  it("#1: the browser's own /favicon.ico request sets no cookie and leaves the notice for the page", async () => {
    const visitor = new PortalClient(portal.app);
    const sealed = (await sessionCodec(portal.config)).encode({ flash: { error: "Kept for the page" } });
    visitor.cookies.set("__Host-portal-session", decodeURIComponent(sealed));
    const icon = await visitor.get("/favicon.ico");
    assert.equal(icon.status, 301);
    assert.match(String(icon.headers.location), /^\/assets\/.+\.png$/);
    assert.equal(icon.headers["set-cookie"], undefined);
    assert.match((await visitor.get("/")).text, /Kept for the page/);
  });

  it("the sign-in page over plain http at another address says why signing in cannot work there", async () => {
    // The text as HTML carries it (its apostrophe escaped).
    const notice = loginNotices.plainHttp.replaceAll("'", "&#x27;");
    const at = (host: string) => new PortalClient(portal.app).get("/", { host });
    assert.ok((await at("portal.example.com")).text.includes(notice));
    assert.ok(!(await at("localhost:3000")).text.includes(notice));
    assert.ok(!(await at("127.0.0.1:3000")).text.includes(notice));
  });
});
