// The session's Strict partner: only a request this site started carries it, and it speaks for its own session only.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import { SameSiteCookies } from "#server/session/same-site-cookie.ts";

const key = randomBytes(32);
const session = { idleSeconds: 1800, maxSeconds: 12 * 3600 };

/** An app that gives the cookie for `sid` on /give, and says on /carried whether a request carries it for `sid`. */
async function app(cookies: SameSiteCookies): Promise<FastifyInstance> {
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
  it("is __Host- named, Secure, HttpOnly, SameSite=Strict, Path=/, with the session's lifetime and no Domain", async () => {
    const header = await given(
      await app(new SameSiteCookies({ sessionKeys: [key], cookieSecure: true, session })),
      "s",
    );
    assert.match(header, /^__Host-portal-same-site=[A-Za-z0-9_-]{22};/);
    for (const attribute of [/; HttpOnly/, /; Secure/, /; SameSite=Strict/, /; Path=\//, /; Max-Age=43200(;|$)/])
      assert.match(header, attribute);
    assert.doesNotMatch(header, /Domain=/i);
    const plain = new SameSiteCookies({ sessionKeys: [key], cookieSecure: false, session });
    assert.match(await given(await app(plain), "s"), /^portal-same-site=/);
  });

  it("is carried for the session it was given for, and for no other: not another session's, not a made-up one", async () => {
    const server = await app(new SameSiteCookies({ sessionKeys: [key], cookieSecure: true, session }));
    const cookie = (await given(server, "sid-1")).split(";")[0] ?? "";
    assert.equal(await carried(server, cookie, "sid-1"), true);
    assert.equal(await carried(server, cookie, "sid-2"), false, "a later session's id");
    assert.equal(await carried(server, "", "sid-1"), false, "none sent: a request another site started");
    assert.equal(await carried(server, "__Host-portal-same-site=1", "sid-1"), false, "a value the browser made up");
  });
});
