// The device cookie: issued to a browser for each person who signed in on it, read back only for that person, and not
// forgeable.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import { DEVICE_MAX_AGE_S, DEVICE_PEOPLE_MAX, DeviceCookies } from "#server/security/device-cookie.ts";

const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];

/** An app that issues a device cookie on /remember and says whose device a request is on /whose. */
async function app(devices: DeviceCookies): Promise<FastifyInstance> {
  const server = Fastify();
  await server.register(fastifyCookie);
  server.post<{ Querystring: { person: string } }>("/remember", async (request, reply) => {
    devices.remember(request, reply, request.query.person);
    return {};
  });
  server.get<{ Querystring: { person: string } }>("/whose", async (request) => ({
    device: devices.deviceOf(request, request.query.person) ?? null,
  }));
  // An id chosen before the upstream call (idFor), granted as the cookie once the call passed.
  server.post<{ Querystring: { person: string } }>("/id-then-remember", async (request, reply) => {
    const id = devices.idFor(request, request.query.person);
    devices.remember(request, reply, request.query.person, id);
    return { id };
  });
  return server;
}

const cookieOf = (answer: { headers: Record<string, unknown> }) =>
  String([answer.headers["set-cookie"]].flat()[0] ?? "");

describe("DeviceCookies", () => {
  it("names the person it was issued to, and no one else; a long-lived, HttpOnly, same-site cookie", async () => {
    const server = await app(new DeviceCookies([newKey], true));
    const issued = await server.inject({ method: "POST", url: "/remember?person=client/acme/erin" });
    const header = cookieOf(issued);
    assert.match(header, /^__Host-portal-device=/);
    for (const attribute of [
      /HttpOnly/,
      /Secure/,
      /SameSite=Strict/,
      /Path=\//,
      new RegExp(`Max-Age=${DEVICE_MAX_AGE_S}`),
    ])
      assert.match(header, attribute);
    assert.doesNotMatch(header, /erin/i, "the person is not readable in it");
    const cookie = header.split(";")[0] ?? "";
    const whose = async (person: string, sent = cookie) =>
      (await server.inject({ url: `/whose?person=${encodeURIComponent(person)}`, headers: { cookie: sent } })).json()
        .device;
    assert.equal(typeof (await whose("client/acme/erin")), "string");
    assert.equal(await whose("client/acme/bob"), null, "another person");
    const tampered = cookie.replace(/.(?=\.)/, (c) => (c === "A" ? "B" : "A"));
    assert.equal(await whose("client/acme/erin", tampered), null, "a changed id");
    assert.equal(await whose("client/acme/erin", "__Host-portal-device=garbage"), null, "garbage");
    const again = await server.inject({
      method: "POST",
      url: "/remember?person=client/acme/erin",
      headers: { cookie },
    });
    assert.equal(cookieOf(again).split(";")[0], cookie, "a known device keeps its id");
    await server.close();
  });

  it("reads and writes the values it always has: an entry issued before still names its person", async () => {
    // The MAC is all 32 bytes of HMAC-SHA-256 over `<id>\n<person>`, under the key "portal device cookie" derives.
    const entry = `${"d".repeat(22)}.wPGrVcs-mqHS1K63uuGAI4ixIEzulOhDoxacx5GS0ls`;
    const server = await app(new DeviceCookies([Buffer.alloc(32, 1)], true));
    const cookie = `__Host-portal-device=${entry}`;
    const device = (await server.inject({ url: "/whose?person=client/acme/erin", headers: { cookie } })).json().device;
    assert.equal(device, "d".repeat(22));
    const again = await server.inject({
      method: "POST",
      url: "/remember?person=client/acme/erin",
      headers: { cookie },
    });
    assert.equal(cookieOf(again).split(";")[0], cookie, "written again, the same value");
    await server.close();
  });

  it("still reads a cookie issued under the previous key after a key rotation", async () => {
    const before = await app(new DeviceCookies([oldKey], true));
    const cookie = cookieOf(await before.inject({ method: "POST", url: "/remember?person=p" })).split(";")[0] ?? "";
    const after = await app(new DeviceCookies([newKey, oldKey], true));
    const device = (await after.inject({ url: "/whose?person=p", headers: { cookie } })).json().device;
    assert.equal(typeof device, "string");
    const elsewhere = await app(new DeviceCookies([newKey], true));
    assert.equal((await elsewhere.inject({ url: "/whose?person=p", headers: { cookie } })).json().device, null);
    await Promise.all([before.close(), after.close(), elsewhere.close()]);
  });

  it("idFor answers the browser's own id for the person, or a fresh one; remember grants the id it is given", async () => {
    const server = await app(new DeviceCookies([newKey], true));
    const first = await server.inject({ method: "POST", url: "/id-then-remember?person=p" });
    const { id } = first.json();
    assert.match(id, /^[A-Za-z0-9_-]{22}$/);
    const cookie = cookieOf(first).split(";")[0] ?? "";
    assert.equal(cookie.split("=")[1]?.split(".")[0], id, "the cookie holds the id idFor answered");
    const again = await server.inject({ method: "POST", url: "/id-then-remember?person=p", headers: { cookie } });
    assert.equal(again.json().id, id, "a known device keeps its id");
    const other = await server.inject({ method: "POST", url: "/id-then-remember?person=q", headers: { cookie } });
    assert.notEqual(other.json().id, id, "for another person it is a fresh one");
    await server.close();
  });

  it("keeps a device for each of the last few people to sign in on the browser, each with their own id", async () => {
    const server = await app(new DeviceCookies([newKey], true));
    let cookie = "";
    const remember = async (person: string) => {
      const answer = await server.inject({
        method: "POST",
        url: `/id-then-remember?person=${person}`,
        headers: { cookie },
      });
      cookie = cookieOf(answer).split(";")[0] ?? "";
      return answer.json().id as string;
    };
    const whose = async (person: string) =>
      (await server.inject({ url: `/whose?person=${person}`, headers: { cookie } })).json().device;
    const acme = await remember("client/acme/alice");
    const globex = await remember("client/globex/alice");
    assert.notEqual(globex, acme, "each person has an id of their own: the upstream cannot tie the two");
    assert.equal(await whose("client/acme/alice"), acme, "ACME alice's device outlives GLOBEX alice's sign-in");
    assert.equal(await whose("client/globex/alice"), globex);
    assert.equal(await remember("client/acme/alice"), acme, "her next sign-in keeps her id");
    assert.equal(cookie.split("~").length, 2, "and is not listed twice");

    const others = Array.from({ length: DEVICE_PEOPLE_MAX - 1 }, (_, index) => `client/acme/clerk-${index}`);
    for (const person of others) await remember(person);
    assert.equal(cookie.split("~").length, DEVICE_PEOPLE_MAX, "at most this many people");
    assert.equal(await whose("client/globex/alice"), null, "the longest unused went first");
    assert.equal(await whose("client/acme/alice"), acme);
    await server.close();
  });

  it("reads no more entries than it keeps, whatever the browser sends", async () => {
    const server = await app(new DeviceCookies([newKey], true));
    const issued = await server.inject({ method: "POST", url: "/remember?person=p" });
    const [, entry = ""] = (cookieOf(issued).split(";")[0] ?? "").split("=");
    const filler = `${"A".repeat(22)}.${"B".repeat(43)}`;
    const late = `__Host-portal-device=${[...Array(DEVICE_PEOPLE_MAX).fill(filler), entry].join("~")}`;
    const device = (await server.inject({ url: "/whose?person=p", headers: { cookie: late } })).json().device;
    assert.equal(device, null, "an entry past the bound is not read");
    await server.close();
  });
});
