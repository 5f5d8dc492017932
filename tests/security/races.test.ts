// Outside review after the rebuild: limits that a burst of parallel requests, a held-back body or a replayed cookie
// must not get round.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { happyUpstream, portalOnFake, sendJson, signInOnFake } from "#tests/security/fake-upstream.ts";
import { PortalVisitor } from "#tests/support/sign-in.ts";

describe("limits that hold under races (outside review)", () => {
  it("12. throttling: fifty parallel wrong passwords for one user reach the upstream only as often as the limit allows", async () => {
    const fake = await portalOnFake(happyUpstream({ refuseLogins: true }), {
      env: { RATE_LIMIT_USER_PER_MINUTE: "3", RATE_LIMIT_IP_PER_MINUTE: "1000" },
    });
    try {
      const attempt = () =>
        new PortalVisitor(fake.app).post("/api/auth/client", { shortname: "ACME", username: "bob", password: "x" });
      const statuses = (await Promise.all(Array.from({ length: 50 }, attempt))).map((answer) => answer.statusCode);
      assert.equal(statuses.filter((status) => status === 200).length, 3, "three attempts answered");
      assert.equal(statuses.filter((status) => status === 429).length, 47, "the rest throttled");
      assert.equal(fake.upstream.callsTo(/^\/auth\/client$/).length, 3, "three reached the upstream");
    } finally {
      await fake.close();
    }
  });

  it("12. throttling: successful sign-ins are given back, so an office's people are not locked out by each other", async () => {
    const fake = await portalOnFake(happyUpstream(), { env: { RATE_LIMIT_IP_PER_MINUTE: "3" } });
    try {
      for (const username of ["a1", "a2", "a3", "a4", "a5"]) {
        const answer = await new PortalVisitor(fake.app).post("/api/auth/client", {
          shortname: "ACME",
          username,
          password: "pw",
        });
        assert.equal(answer.statusCode, 200, username);
      }
    } finally {
      await fake.close();
    }
  });

  it("B4: guessing the current password from a session is throttled like a sign-in", async () => {
    const fake = await portalOnFake(
      (call, response) =>
        call.path.includes("/password/test")
          ? sendJson(response, 400, { description: "The current password is not correct." })
          : happyUpstream()(call, response),
      { env: { RATE_LIMIT_USER_PER_MINUTE: "3" } },
    );
    try {
      const { visitor } = await signInOnFake(fake.app);
      const statuses: number[] = [];
      for (let guess = 0; guess < 5; guess++)
        statuses.push(
          (await visitor.post("/api/web/client/password/test", { userId: "alice", password: `g${guess}` })).statusCode,
        );
      assert.deepEqual(statuses, [400, 400, 400, 429, 429]);
      assert.equal(fake.upstream.callsTo(/password\/test/).length, 3);
    } finally {
      await fake.close();
    }
  });

  it("B4: a passed password test is spent once, even by a replayed copy of the cookie", async () => {
    const fake = await portalOnFake(happyUpstream());
    try {
      const { visitor } = await signInOnFake(fake.app);
      await visitor.post("/api/web/client/password/test", { userId: "alice", password: "pw" });
      const copy = new PortalVisitor(fake.app);
      copy.cookies = new Map(visitor.cookies);
      const change = { password: "Brand-New-Passw0rd!" };
      assert.equal((await visitor.post("/api/web/client/password/change", change)).statusCode, 200);
      const replay = await copy.post("/api/web/client/password/change", change);
      assert.equal(replay.statusCode, 400, "the copy's test was spent");
      assert.equal(replay.json().code, "password-not-tested");
      assert.equal(fake.upstream.callsTo(/password\/change/).length, 1);
    } finally {
      await fake.close();
    }
  });

  it("7. lifecycle: a request that holds its body back until after sign-out is refused when the body arrives", async () => {
    const fake = await portalOnFake(happyUpstream(), { listen: true });
    try {
      const { visitor } = await signInOnFake(fake.app);
      const { port } = new URL(fake.url);
      const body = JSON.stringify({ userId: "alice", password: "pw" });
      const socket = connect(Number(port), "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(
        [
          "POST /api/web/client/password/test HTTP/1.1",
          `Host: 127.0.0.1:${port}`,
          "Content-Type: application/json",
          `Content-Length: ${body.length}`,
          "X-Portal-Request: 1",
          `Origin: http://127.0.0.1:${port}`,
          `Cookie: ${visitor.cookieHeader}`,
          "",
          "",
        ].join("\r\n"),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const kept = new PortalVisitor(fake.app);
      kept.cookies = new Map(visitor.cookies);
      await visitor.post("/session/logout");
      const answered = new Promise<string>((resolve) => {
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString();
          if (text.includes("\r\n\r\n")) resolve(text);
        });
      });
      socket.write(body);
      const head = await answered;
      socket.destroy();
      assert.match(head, /^HTTP\/1\.1 401/, "the signed-out session's held-back call is refused");
      assert.equal(fake.upstream.callsTo(/password\/test/).length, 0, "nothing reached the upstream");
    } finally {
      await fake.close();
    }
  });
});
