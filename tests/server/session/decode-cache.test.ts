// server/session/decode-cache.ts: a session cookie opened once answers later requests with the same contents, and
// never lets one request's writes reach another's.
import assert from "node:assert/strict";
import { test } from "node:test";
import secureSession from "@fastify/secure-session";
import Fastify from "fastify";
import { cacheSessionDecoding } from "#server/session/decode-cache.ts";

const KEY = Buffer.alloc(32, 7);
const OLD_KEY = Buffer.alloc(32, 9);

async function appWith(keys: Buffer[], expirySeconds = 3600) {
  const app = Fastify();
  await app.register(secureSession, { key: keys, cookieName: "s", expiry: expirySeconds, cookie: { path: "/" } });
  cacheSessionDecoding(app, expirySeconds);
  await app.ready();
  return app;
}

const sealed = async (keys: Buffer[], data: Record<string, unknown>) => {
  const app = await appWith(keys);
  return app.encodeSecureSession(app.createSecureSession(data));
};

test("a cookie opened before is answered with the same contents, as a session of its own", async () => {
  const app = await appWith([KEY]);
  const cookie = await sealed([KEY], { userName: "alice", perms: { info: { isAdmin: false }, at: 1 } });
  const first = app.decodeSecureSession(cookie);
  const second = app.decodeSecureSession(cookie);
  assert.ok(first && second);
  assert.notEqual(first, second, "each request gets its own session object");
  assert.deepEqual(second.data(), first.data());
  assert.equal(second.changed, false, "an unchanged session is not sealed again");
});

test("one request's writes never reach the next request's session", async () => {
  const app = await appWith([KEY]);
  const cookie = await sealed([KEY], { userName: "alice", sid: "one" });
  const first = app.decodeSecureSession(cookie);
  first?.set("sid", "changed");
  first?.regenerate([]);
  const second = app.decodeSecureSession(cookie);
  assert.equal(second?.get("sid"), "one");
  assert.equal(second?.get("userName"), "alice");
});

test("kept contents are frozen: a write in place (not through set) throws instead of leaking", async () => {
  const app = await appWith([KEY]);
  const cookie = await sealed([KEY], { perms: { info: { isAdmin: false }, at: 1 } });
  app.decodeSecureSession(cookie);
  const perms = app.decodeSecureSession(cookie)?.get("perms") as { at: number };
  assert.throws(() => {
    perms.at = 2;
  }, TypeError);
});

test("a forged or tampered cookie is refused every time", async () => {
  const app = await appWith([KEY]);
  const cookie = await sealed([KEY], { userName: "alice" });
  const tampered = `${cookie.slice(0, 10)}${cookie[10] === "A" ? "B" : "A"}${cookie.slice(11)}`;
  assert.equal(app.decodeSecureSession(tampered), null);
  assert.equal(app.decodeSecureSession(tampered), null);
  assert.equal(app.decodeSecureSession(await sealed([Buffer.alloc(32, 1)], { userName: "mallory" })), null);
});

test("a kept cookie past the library's expiry is refused, as the library would", async (t) => {
  const app = await appWith([KEY], 60);
  const cookie = await sealed([KEY], { userName: "alice" });
  assert.ok(app.decodeSecureSession(cookie));
  t.mock.timers.enable({ apis: ["Date"], now: Date.now() + 61_000 });
  assert.equal(app.decodeSecureSession(cookie), null);
});

test("a value with a kept cookie's nonce but other sealed text is opened, and refused, like any other", async () => {
  const app = await appWith([KEY]);
  const cookie = await sealed([KEY], { userName: "alice" });
  assert.ok(app.decodeSecureSession(cookie));
  const [cipher, nonce] = cookie.split(";") as [string, string];
  const other = (await sealed([KEY], { userName: "mallory" })).split(";")[0] as string;
  assert.equal(app.decodeSecureSession(`${other};${nonce}`), null, "mallory's sealed text under alice's nonce");
  assert.equal(app.decodeSecureSession(`${cipher};${nonce}`)?.get("userName" as never), "alice");
});

test("a cookie sealed with an older key is sealed again with the new one, whether opened or kept", async () => {
  const app = await appWith([KEY, OLD_KEY]);
  const cookie = await sealed([OLD_KEY], { userName: "alice" });
  assert.equal(app.decodeSecureSession(cookie)?.changed, true);
  assert.equal(app.decodeSecureSession(cookie)?.changed, true);
});
