// server/actions/password-test.ts: the test of the current password is made for the session's own user, and a wrong
// answer cancels a test passed before it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { logCapture } from "#tests/support/log-capture.ts";
import { portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
import { accountTexts } from "#web/texts/account.ts";

/** A portal on a fake upstream, closed after the file's tests. */
const onFake = portalsOnFakeForFile();

describe("the test of the current password", () => {
  it("the password test names the session's own user, whatever the browser sends", async () => {
    const fakeUpstream = await onFake();
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const test = await client.post("/api/web/client/password/test", { userId: "someone-else", password: "pw" });
    assert.equal(test.status, 200);
    const [sent] = fakeUpstream.upstream.callsTo(/\/password\/test$/).slice(-1);
    assert.equal(JSON.parse(sent?.body ?? "{}").userId, "alice");
  });

  it("a wrong current password cancels a test passed before it", async () => {
    let wrong = false;
    const happy = happyUpstream();
    const fakeUpstream = await onFake((call, response) => {
      if (wrong && call.path.endsWith("/password/test")) return sendJson(response, 400, { detail: "Wrong password" });
      return happy(call, response);
    });
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const test = { userId: "alice", password: "pw" };
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 200);
    wrong = true;
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 400);
    const change = await client.post("/api/web/client/password/change", { password: "New-Portal-2026!x" });
    assert.equal(change.status, 400);
    assert.equal((change.json() as { code: string }).code, "password-not-tested");
  });

  it("a test the upstream could not make is no wrong password: the security activity does not say so", async () => {
    let answer: "fail" | "hang up" | "refuse" = "fail";
    const happy = happyUpstream();
    const fakeUpstream = await onFake((call, response) => {
      if (!call.path.endsWith("/password/test")) return happy(call, response);
      if (answer === "fail") return sendJson(response, 500, { detail: "database down" });
      if (answer === "hang up") return void response.socket?.destroy();
      return sendJson(response, 400, { detail: "Wrong password" });
    });
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const test = { userId: "alice", password: "pw" };
    const wrongPassword = String(accountTexts.events["password.test-failed"]);
    const activity = async () => (await client.get("/client/users/change-password")).text;
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 500);
    answer = "hang up";
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 502);
    assert.doesNotMatch(await activity(), new RegExp(wrongPassword));
    answer = "refuse";
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 400);
    assert.match(await activity(), new RegExp(wrongPassword));
  });
});

describe("a run of upstream faults on the password test", () => {
  it("is logged when it starts and when tests are answered again, as on sign-in: not once per test", async () => {
    let broken = true;
    const happy = happyUpstream();
    const logs = logCapture("password-test-faults");
    const fakeUpstream = await onFake(
      (call, response) => {
        if (broken && call.path.endsWith("/password/test")) return void response.socket?.destroy();
        return happy(call, response);
      },
      { logs: logs.stream },
    );
    const client = await signIn(fakeUpstream.app, accounts.alice, fakeUpstream.code);
    const test = { userId: "alice", password: "pw" };
    for (let index = 0; index < 8; index++)
      assert.equal((await client.post("/api/web/client/password/test", test)).status, 502);
    broken = false;
    assert.equal((await client.post("/api/web/client/password/test", test)).status, 200);
    const lines = logs.lines.map((line) => JSON.parse(line) as { level: number; msg: string; failed?: number });
    assert.deepEqual(
      lines.filter((line) => line.msg.startsWith("upstream")).map(({ level, msg, failed }) => [level, msg, failed]),
      [
        [40, "upstream fault", undefined],
        [30, "upstream answers again", 8],
      ],
    );
  });
});
