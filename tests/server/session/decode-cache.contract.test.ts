// What server/session/decode-cache.ts relies on in @fastify/secure-session, pinned: a release that changes any of it
// fails here, before the cache answers a request with what the library would no longer answer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import secureSession from "@fastify/secure-session";
import Fastify from "fastify";

const KEY = Buffer.alloc(32, 7);
const OLD_KEY = Buffer.alloc(32, 9);
const EXPIRY_SECONDS = 60;

async function appWith(keys = [KEY]) {
  const app = Fastify();
  await app.register(secureSession, { key: keys, cookieName: "s", expiry: EXPIRY_SECONDS, cookie: { path: "/" } });
  app.get("/", (request) => ({ who: request.session.get("who" as never) ?? null }));
  await app.ready();
  return app;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("@fastify/secure-session, as the decode cache relies on it", () => {
  it("opens each request's cookie through the instance's decodeSecureSession, so a decoder put in its place answers", async () => {
    const app = await appWith();
    const calls: unknown[][] = [];
    app.decodeSecureSession = (...args) => {
      calls.push(args);
      return args[0] === undefined ? null : app.createSecureSession({ who: "the replacement" });
    };
    const answer = await app.inject({ url: "/", cookies: { s: "sealed-text;nonce" } });
    assert.deepEqual(answer.json(), { who: "the replacement" });
    await app.inject({ url: "/" });
    assert.equal(calls.length, 2);
    const [[cookie, log, sessionName], [none]] = calls as [[string, { info: unknown }, string], [unknown]];
    assert.equal(cookie, "sealed-text;nonce", "the cookie's value, as sent");
    assert.equal(typeof log.info, "function", "the request's logger");
    assert.equal(sessionName, "session");
    assert.equal(none, undefined, "no cookie is passed on as undefined");
  });

  it("seals a session as base64, one ';' and the seal's own 24-byte nonce, new for every seal", async () => {
    const app = await appWith();
    const session = app.createSecureSession({ who: "alice" });
    const [first, second] = [app.encodeSecureSession(session), app.encodeSecureSession(session)];
    for (const sealed of [first, second]) assert.match(sealed, /^[A-Za-z0-9+/]+=*;[A-Za-z0-9+/]{32}$/);
    const nonceOf = (sealed: string) => sealed.slice(sealed.lastIndexOf(";") + 1);
    assert.notEqual(nonceOf(first), nonceOf(second), "the same contents sealed twice have two nonces");
    assert.equal(app.decodeSecureSession(first)?.get("who" as never), "alice");
  });

  it("answers null for a value its keys do not open, and for one sealed expiry seconds ago or more", async (t) => {
    const sealedAt = 1_800_000_000;
    t.mock.timers.enable({ apis: ["Date"], now: sealedAt * 1000 });
    const app = await appWith();
    const sealed = app.encodeSecureSession(app.createSecureSession({ who: "alice" }));
    const other = await appWith([Buffer.alloc(32, 1)]);
    assert.equal(other.decodeSecureSession(sealed), null, "another key");
    const tampered = `${sealed.slice(0, 10)}${sealed[10] === "A" ? "B" : "A"}${sealed.slice(11)}`;
    assert.equal(app.decodeSecureSession(tampered), null, "a changed byte");
    t.mock.timers.setTime((sealedAt + EXPIRY_SECONDS) * 1000 - 1);
    assert.equal(app.decodeSecureSession(sealed)?.get("__ts" as never), sealedAt, "a millisecond before: open");
    t.mock.timers.setTime((sealedAt + EXPIRY_SECONDS) * 1000);
    assert.equal(app.decodeSecureSession(sealed), null, "at (__ts + expiry) × 1000 ms: expired");
  });

  it("reads __ts through get, keeps the __ts it is created with, leaves it out of data() and seals it", async () => {
    const app = await appWith();
    const ts = Math.round(Date.now() / 1000) - 5;
    const session = app.createSecureSession({ who: "alice", __ts: ts });
    assert.equal(session.get("__ts" as never), ts);
    assert.deepEqual(session.data(), { who: "alice" });
    assert.equal(app.decodeSecureSession(app.encodeSecureSession(session))?.get("__ts" as never), ts);
  });

  it("says a value opened with an older key is changed, and seals again on send a session the decoder marked changed", async () => {
    const app = await appWith([KEY, OLD_KEY]);
    const sealedWith = async (key: typeof KEY) => {
      const sealer = await appWith([key]);
      return sealer.encodeSecureSession(sealer.createSecureSession({ who: "alice" }));
    };
    assert.equal(app.decodeSecureSession(await sealedWith(OLD_KEY))?.changed, true);
    assert.equal(app.decodeSecureSession(await sealedWith(KEY))?.changed, false);
    let changed = false;
    app.decodeSecureSession = () => {
      const session = app.createSecureSession({ who: "alice" });
      session.changed = changed;
      return session;
    };
    const setCookie = async () => (await app.inject({ url: "/", cookies: { s: "x;y" } })).headers["set-cookie"];
    assert.equal(await setCookie(), undefined, "an unchanged session is not sealed");
    changed = true;
    assert.match(String(await setCookie()), /^s=[^;]+%3B/, "a changed one is");
  });

  it("writes a session's changes to the object it was created from, never into its values, so frozen values are safe", async () => {
    const app = await appWith();
    const kept = deepFreeze({ who: "alice", perms: { info: { isAdmin: false } }, keep: "me" });
    const session = app.createSecureSession({ ...kept, __ts: Math.round(Date.now() / 1000) });
    session.set("who" as never, "bob" as never);
    assert.equal(session.get("who" as never), "bob");
    session.regenerate(["keep"]);
    assert.deepEqual(session.data(), { keep: "me" });
    session.touch();
    session.delete();
    assert.ok(app.encodeSecureSession(session));
    assert.deepEqual(kept, { who: "alice", perms: { info: { isAdmin: false } }, keep: "me" }, "the kept contents");
  });
});
