// server/api/answers.ts: what a sign-in answer keeps in the session: a token the portal could not send back is refused,
// and a link answer that does not say the account's state opens nothing until the permissions call answers for it.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { type PortalOnFake, portalOnFake } from "#tests/support/portal-on-fake.ts";

const portals: PortalOnFake[] = [];
after(() => Promise.all(portals.map((portal) => portal.close())));
/** A portal on a fake upstream, closed after the file's tests. */
async function onFake(...args: Parameters<typeof portalOnFake>) {
  const portal = await portalOnFake(...args);
  portals.push(portal);
  return portal;
}

describe("the token a sign-in answer hands over", () => {
  for (const [what, token] of [
    ["a newline", "tok-a\nb"],
    ["a character beyond Latin-1", "tok-\u0100x"],
    ["a trailing space", "tok-ends-with-space "],
  ] as const) {
    it(`a token with ${what} is refused at sign-in (502, no session) and the portal keeps serving`, async () => {
      const { app } = await onFake(happyUpstream({ token }));
      const client = new PortalClient(app);
      const login = await client.post("/api/auth/client", { shortname: "ACME", username: "alice", password: "pw" });
      assert.equal(login.status, 502);
      assert.deepEqual(login.json(), {});
      const link = await client.post("/api/auth/client-token?uuid=link-0001");
      assert.equal(link.status, 502, "a link sign-in with it is refused too");
      assert.equal(client.cookies.size, 0, "no session is handed to the browser");
      assert.equal((await client.get("/register")).status, 200);
      assert.equal((await client.get("/healthz")).status, 200);
    });
  }
});

describe("a link sign-in", () => {
  it("whose answer does not give the account's state opens no section until the permissions call answers for it", async () => {
    const happy = happyUpstream();
    const fake = await portalOnFake((call, response) =>
      /\/user-info$/.test(call.path) ? sendJson(response, 403, { detail: "Password Expired" }) : happy(call, response),
    );
    try {
      const visitor = new PortalClient(fake.app);
      const link = await visitor.post("/api/auth/client-token?uuid=a-link-without-a-state");
      assert.equal(link.json().tokenHeld, false, "the link opened nothing");
      assert.equal(
        (await visitor.get("/client/home")).headers.location,
        "/?return=%2Fclient%2Fhome",
        "no section page",
      );
      assert.equal((await visitor.get("/pdfs/BankHolidays.pdf")).status, 401, "no document");
    } finally {
      await fake.close();
    }
  });
});
