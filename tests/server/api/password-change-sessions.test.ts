// A password change ends the person's other sessions: when the form's box is checked (the default), and always on
// the forced change of an expired password at sign-in; the answer says how many ended.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";
import { END_OTHERS_HEADER, ENDED_COUNT_HEADER } from "#web/api/end-others.ts";

describe("a password change and the other sessions", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  const opens = async (client: PortalClient, path = "/client/home") => (await client.copy().get(path)).status === 200;
  const change = async (client: PortalClient, site: string, from: string, to: string, endOthers?: "1" | "0") => {
    const tested = await client.post(`/api/web/${site}/password/test`, { userId: "someone", password: from });
    assert.equal(tested.status, 200, tested.text);
    const headers: Record<string, string> = endOthers ? { [END_OTHERS_HEADER]: endOthers } : {};
    return client.request("POST", `/api/web/${site}/password/change`, { password: to }, headers);
  };

  it("with the box checked, ends every other session of the person, and says how many", async () => {
    const first = await signIn(portal.app, accounts.alice, portal.code);
    const second = await signIn(portal.app, accounts.alice, portal.code);
    const here = await signIn(portal.app, accounts.alice, portal.code);
    const victor = await signIn(portal.app, accounts.victor, portal.code);
    const answer = await change(here, "client", DEMO_PASSWORD, "Changed-Once-2026!", "1");
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers[ENDED_COUNT_HEADER], "2");
    assert.equal(await opens(first), false);
    assert.equal(await opens(second), false);
    assert.ok(await opens(here), "this session goes on");
    assert.ok(await opens(victor), "no one else's session ends");
  });

  it("with the box cleared, ends nothing", async () => {
    const other = await signIn(portal.app, accounts.victor, portal.code);
    const here = await signIn(portal.app, accounts.victor, portal.code);
    const answer = await change(here, "client", DEMO_PASSWORD, "Changed-Twice-2026!", "0");
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers[ENDED_COUNT_HEADER], undefined);
    assert.ok(await opens(other));
  });

  it("the forced change of an expired password ends every other session, without asking", async () => {
    const other = await signIn(portal.app, accounts.paula, portal.code);
    const here = await signIn(portal.app, accounts.paula, portal.code);
    const answer = await change(here, "client", DEMO_PASSWORD, "Not-Expired-2026!");
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers[ENDED_COUNT_HEADER], "1");
    assert.equal((await other.copy().get("/client/home")).headers.location, "/?return=%2Fclient%2Fhome");
    assert.ok(await opens(here), "the changed session is signed in");
  });
});
