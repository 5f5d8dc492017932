// The previous tracked path (requirements 4.8) in a cookie of its own: small whatever the path, bound to its session,
// and never a path a browser could choose for itself or for someone else.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import { PreviousPages } from "#server/pages/previous-page.ts";

const [oldKey, newKey] = [randomBytes(32), randomBytes(32)] as [Buffer, Buffer];
const MAX_SECONDS = 12 * 3600;

const pagesWith = (sessionKeys: Buffer[]) =>
  new PreviousPages({ sessionKeys, cookieSecure: true, session: { idleSeconds: 1800, maxSeconds: MAX_SECONDS } });

type Asked = { Querystring: { sid: string; page: string } };

/** An app that makes `page` the previous one of session `sid` on /remember, and asks whether it is on /is-previous. */
async function app(pages: PreviousPages): Promise<FastifyInstance> {
  const server = Fastify();
  await server.register(fastifyCookie);
  server.get<Asked>("/remember", async (request, reply) => {
    pages.remember(reply, request.query.sid, request.query.page);
    return {};
  });
  server.get<Asked>("/is-previous", async (request) => ({
    previous: pages.isPrevious(request, request.query.sid, request.query.page),
  }));
  return server;
}

const query = (sid: string, page: string) => `sid=${encodeURIComponent(sid)}&page=${encodeURIComponent(page)}`;

/** The Set-Cookie /remember answers for this session and page. */
async function remembered(server: FastifyInstance, sid: string, page: string): Promise<string> {
  const answer = await server.inject({ url: `/remember?${query(sid, page)}` });
  return String([answer.headers["set-cookie"]].flat()[0] ?? "");
}

async function isPrevious(server: FastifyInstance, cookie: string, sid: string, page: string): Promise<boolean> {
  const answer = await server.inject({ url: `/is-previous?${query(sid, page)}`, headers: { cookie } });
  return answer.json().previous;
}

const pairOf = (setCookie: string) => setCookie.split(";")[0] ?? "";

describe("the previous page's cookie", () => {
  it("says the page remembered is the previous one for its session, and no other page is", async () => {
    const server = await app(pagesWith([newKey]));
    const cookie = pairOf(await remembered(server, "sid-1", "/client/home"));
    assert.equal(await isPrevious(server, cookie, "sid-1", "/client/home"), true);
    assert.equal(await isPrevious(server, cookie, "sid-1", "/client/inbox"), false);
    assert.equal(await isPrevious(server, "", "sid-1", "/client/home"), false, "no cookie: no previous page");
  });

  it("is ignored by another session, even the same person's: it is bound to the session's id", async () => {
    const server = await app(pagesWith([newKey]));
    const cookie = pairOf(await remembered(server, "sid-1", "/client/home"));
    assert.equal(await isPrevious(server, cookie, "sid-2", "/client/home"), false);
  });

  it("holds no path, only 22 characters whatever the path: a long or non-ASCII one costs no more", async () => {
    const server = await app(pagesWith([newKey]));
    for (const page of ["/client/home", `/client/${"x".repeat(2000)}`, "/client/caf\u00e9", '/client/a"b;c']) {
      const cookie = pairOf(await remembered(server, "sid-1", page));
      assert.match(cookie, /^__Host-portal-page=[A-Za-z0-9_-]{22}$/, page.slice(0, 40));
      assert.equal(await isPrevious(server, cookie, "sid-1", page), true, page.slice(0, 40));
    }
    // Two long paths that differ only at their end are two pages.
    const long = `/client/${"y".repeat(100)}`;
    const cookie = pairOf(await remembered(server, "sid-1", `${long}1`));
    assert.equal(await isPrevious(server, cookie, "sid-1", `${long}2`), false);
  });

  it("a value the browser made up is no previous page: the path itself, garbage, or a MAC under another key", async () => {
    const server = await app(pagesWith([newKey]));
    const elsewhere = await app(pagesWith([randomBytes(32)]));
    const forged = [
      "__Host-portal-page=/client/home",
      "__Host-portal-page=AAAAAAAAAAAAAAAAAAAAAA",
      `__Host-portal-page=${"%".repeat(22)}`,
      pairOf(await remembered(elsewhere, "sid-1", "/client/home")),
    ];
    for (const cookie of forged) assert.equal(await isPrevious(server, cookie, "sid-1", "/client/home"), false, cookie);
  });

  it("one written under the previous key still holds after a key rotation; the new key writes", async () => {
    const before = await app(pagesWith([oldKey]));
    const after = await app(pagesWith([newKey, oldKey]));
    const cookie = pairOf(await remembered(before, "sid-1", "/client/home"));
    assert.equal(await isPrevious(after, cookie, "sid-1", "/client/home"), true);
    const rewritten = pairOf(await remembered(after, "sid-1", "/client/home"));
    assert.equal(await isPrevious(await app(pagesWith([newKey])), rewritten, "sid-1", "/client/home"), true);
  });

  it("has the session cookie's attributes and lifetime: __Host-, Secure, HttpOnly, SameSite=Lax, Path=/", async () => {
    const header = await remembered(await app(pagesWith([newKey])), "sid-1", "/client/home");
    for (const attribute of [/; HttpOnly/, /; Secure/, /; SameSite=Lax/, /; Path=\//, /; Max-Age=43200(;|$)/])
      assert.match(header, attribute);
    assert.doesNotMatch(header, /Domain=/i);
    const plain = new PreviousPages({
      sessionKeys: [newKey],
      cookieSecure: false,
      session: { idleSeconds: 1800, maxSeconds: MAX_SECONDS },
    });
    assert.match(await remembered(await app(plain), "sid-1", "/client/home"), /^portal-page=/);
  });
});
