// The MAC the small cookies beside the session carry: 22 characters, matching only what it was made for, under a key
// of its own per purpose, and still matching under an older session key (rotation). The session's Strict partner: only
// a request this site started carries it, and it speaks for its own session only.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import { CookieMac, SameSiteCookie } from "#server/session/cookie-mac.ts";

const [oldKey, newKey] = [randomBytes(32), randomBytes(32)] as [Buffer, Buffer];

describe("a cookie's MAC", () => {
  it("is 22 base64url characters, and matches the text it was made of and no other", () => {
    const mac = new CookieMac([newKey], "a purpose");
    const value = mac.of("sid-1");
    assert.match(String(value), /^[A-Za-z0-9_-]{22}$/);
    assert.equal(mac.matches(value, "sid-1"), true);
    assert.equal(mac.matches(value, "sid-2"), false);
    assert.equal(mac.matches(undefined, "sid-1"), false, "no cookie matches nothing");
  });

  it("made for one purpose matches for no other: each has a key of its own", () => {
    const value = new CookieMac([newKey], "a purpose").of("sid-1");
    assert.equal(new CookieMac([newKey], "another purpose").matches(value, "sid-1"), false);
  });

  it("refuses a value the browser made up: garbage, the wrong length, or a MAC under another key", () => {
    const mac = new CookieMac([newKey], "a purpose");
    const forged = ["", "sid-1", "A".repeat(22), `${mac.of("sid-1")}A`, "!".repeat(22)];
    for (const value of forged) assert.equal(mac.matches(value, "sid-1"), false, value);
    assert.equal(mac.matches(new CookieMac([randomBytes(32)], "a purpose").of("sid-1"), "sid-1"), false);
  });

  it("under rotation: the first key writes, an older key's value still matches, and a removed key's no longer does", () => {
    const before = new CookieMac([oldKey], "a purpose").of("sid-1");
    const rotated = new CookieMac([newKey, oldKey], "a purpose");
    assert.equal(rotated.matches(before, "sid-1"), true);
    assert.equal(rotated.of("sid-1"), new CookieMac([newKey], "a purpose").of("sid-1"));
    assert.equal(new CookieMac([newKey], "a purpose").matches(before, "sid-1"), false);
  });
});

const key = randomBytes(32);
/** The session cookie's attributes, as the session plugin gives them, with a lifetime of 12 hours. */
const sessionCookie = (secure: boolean) => ({ path: "/", httpOnly: true, secure, sameSite: "lax", maxAge: 12 * 3600 });

/** An app that gives the cookie for `sid` on /give, and says on /carried whether a request carries it for `sid`. */
async function app(cookies: SameSiteCookie): Promise<FastifyInstance> {
  const server = Fastify();
  await server.register(fastifyCookie);
  server.get<{ Querystring: { sid: string } }>("/give", async (request, reply) => {
    cookies.give(reply, request.query.sid);
    return {};
  });
  server.get<{ Querystring: { sid: string } }>("/carried", async (request) => ({
    carried: cookies.carried(request, request.query.sid),
  }));
  return server;
}

const given = async (server: FastifyInstance, sid: string) =>
  String([(await server.inject({ url: `/give?sid=${sid}` })).headers["set-cookie"]].flat()[0] ?? "");
const carried = async (server: FastifyInstance, cookie: string, sid: string): Promise<boolean> =>
  (await server.inject({ url: `/carried?sid=${sid}`, headers: { cookie } })).json().carried;

describe("the session's same-site cookie", () => {
  it("is __Host- named, Secure, HttpOnly, SameSite=Strict, Path=/, with the session cookie's lifetime and no Domain", async () => {
    const header = await given(await app(new SameSiteCookie([key], sessionCookie(true))), "s");
    assert.match(header, /^__Host-portal-same-site=[A-Za-z0-9_-]{22};/);
    for (const attribute of [/; HttpOnly/, /; Secure/, /; SameSite=Strict/, /; Path=\//, /; Max-Age=43200(;|$)/])
      assert.match(header, attribute);
    assert.doesNotMatch(header, /Domain=/i);
    const plain = new SameSiteCookie([key], sessionCookie(false));
    assert.match(await given(await app(plain), "s"), /^portal-same-site=/);
  });

  it("is carried for the session it was given for, and for no other: not another session's, not a made-up one", async () => {
    const server = await app(new SameSiteCookie([key], sessionCookie(true)));
    const cookie = (await given(server, "sid-1")).split(";")[0] ?? "";
    assert.equal(await carried(server, cookie, "sid-1"), true);
    assert.equal(await carried(server, cookie, "sid-2"), false, "a later session's id");
    assert.equal(await carried(server, "", "sid-1"), false, "none sent: a request another site started");
    assert.equal(await carried(server, "__Host-portal-same-site=1", "sid-1"), false, "a value the browser made up");
  });
});
