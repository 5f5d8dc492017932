// SECURITY.md item 9: sign-in, reset and MFA throttled per client IP and per user; unknown user and wrong password alike.
// SECURITY.md's breaks B11 and B12: throttles keyed by the whole person, and a cost per attempt that a flood does not grow.
// Limits that a burst of parallel requests must not get round.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import { type Answer, downUpstreamUrl, happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { accounts, DEMO_PASSWORD, FAKE_UPSTREAM_CODE, signIn } from "#harness/sign-in.ts";
import {
  HOUR_MS,
  KNOWN_ADDRESS_MS,
  PERSON_HOURLY_FACTOR,
  Throttle,
  UNACCEPTED_WINDOW_MS,
} from "#server/security/throttle.ts";
import { MemoryCounters } from "#server/stores/counters.ts";
import { COUNTER_BOUNDS } from "#server/stores/memory-bounds.ts";
import { serverTexts } from "#server/texts.ts";
import { SHARED_COUNTS_REDIS_MS, startPortalInProcess } from "#tests/support/portal.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";
import { testStores } from "#tests/support/stores.ts";
import { answerMessage } from "#web/api/answer.ts";
import { readVerdict } from "#web/protocol/held.ts";

/** A post from `ip`, with `cookie` as the Cookie header when given. */
const post = (app: FastifyInstance, url: string, payload: unknown, ip: string, cookie?: string) =>
  new PortalClient(app, { remoteAddress: ip }).post(url, payload, cookie ? { cookie } : {});

/** The session's cookie of an answer, as a Cookie header carries it (the device cookie may come beside it). */
const sessionCookie = (answer: { headers: Record<string, unknown> }) =>
  [answer.headers["set-cookie"] ?? []]
    .flat()
    .map(String)
    .find((cookie) => /^(__Host-)?portal-session=/.test(cookie))
    ?.split(";")[0] ?? "";

const login = (username: string, password = "pw") => ({ shortname: "ACME", username, password });

function assertThrottled(answer: { status: number; json(): unknown; headers: Record<string, unknown> }, what: string) {
  assert.equal(answer.status, 429, what);
  const wait = Number(answer.headers["retry-after"]);
  assert.ok(wait >= 1 && wait <= 60, `${what}: Retry-After says when to try again`);
  assert.deepEqual(
    answer.json(),
    { detail: serverTexts.throttled.message(wait), code: serverTexts.throttled.code },
    what,
  );
  assert.match(answerMessage(answer.status, answer.json()), /Please wait \d+ seconds?/, `${what}: the UI's message`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

describe("throttling (item 9)", () => {
  it("9. throttling: failed sign-ins are limited per client IP with a clear 429, throttled attempts never reach the upstream, and the window passes", async () => {
    let clock = Date.now();
    const fake = await portalOnFake(happyUpstream({ refuseLogins: true }), {
      env: { RATE_LIMIT_IP_PER_MINUTE: "3", RATE_LIMIT_USER_PER_MINUTE: "100" },
      now: () => clock,
    });
    try {
      for (const user of ["u1", "u2", "u3"])
        assert.equal((await post(fake.app, "/api/auth/client", login(user), "198.51.100.1")).status, 200, user);
      assertThrottled(await post(fake.app, "/api/auth/client", login("u4"), "198.51.100.1"), "a fourth user, same IP");
      assertThrottled(await post(fake.app, "/api/auth/vendor-token?uuid=x", undefined, "198.51.100.1"), "link login");
      assert.equal(fake.upstream.callsTo(/^\/auth\//).length, 3, "throttled attempts were not forwarded");
      assert.equal((await post(fake.app, "/api/auth/client", login("u5"), "198.51.100.2")).status, 200, "another IP");
      clock += 61_000;
      assert.equal((await post(fake.app, "/api/auth/client", login("u6"), "198.51.100.1")).status, 200, "a minute on");
    } finally {
      await fake.close();
    }
  });

  it("9. throttling: failed sign-ins are limited per user ID at an address, however the name is cased", async () => {
    const fake = await portalOnFake(happyUpstream({ refuseLogins: true }), {
      env: { RATE_LIMIT_IP_PER_MINUTE: "100", RATE_LIMIT_USER_PER_MINUTE: "2" },
    });
    try {
      assert.equal((await post(fake.app, "/api/auth/client", login("alice"), "203.0.113.1")).status, 200);
      assert.equal((await post(fake.app, "/api/auth/client", login("Alice"), "203.0.113.1")).status, 200);
      assertThrottled(await post(fake.app, "/api/auth/client", login(" ALICE "), "203.0.113.1"), "alice, third try");
      assert.equal((await post(fake.app, "/api/auth/client", login("bob"), "203.0.113.1")).status, 200, "bob is not");
      const vendor = { username: "alice", password: "pw" };
      assert.equal((await post(fake.app, "/api/auth/vendor", vendor, "203.0.113.1")).status, 200, "vendor alice");
    } finally {
      await fake.close();
    }
  });

  it("9. throttling: attempts sent at once cannot get past the limits: each counts from when it is sent, and only a success gives its count back", async () => {
    const refusing = happyUpstream({ refuseLogins: true });
    const slow: Answer = (call, response) => void setTimeout(() => refusing(call, response), 100);
    const fake = await portalOnFake(slow, {
      env: { RATE_LIMIT_IP_PER_MINUTE: "100", RATE_LIMIT_USER_PER_MINUTE: "3" },
    });
    try {
      const attempts = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          post(fake.app, "/api/auth/client", login("alice", `guess-${index}`), "203.0.113.1"),
        ),
      );
      assert.equal(attempts.filter((answer) => answer.status === 200).length, 3, "three of thirty went through");
      for (const answer of attempts.filter((answer) => answer.status !== 200)) assertThrottled(answer, "the rest");
      assert.equal(fake.upstream.callsTo(/^\/auth\//).length, 3, "and only three reached the upstream");

      fake.upstream.answer = happyUpstream();
      const office = await Promise.all(
        Array.from({ length: 3 }, (_, index) =>
          post(fake.app, "/api/auth/client", login(`colleague-${index}`), "192.0.2.200"),
        ),
      );
      assert.ok(office.every((answer) => answer.status === 200));
      for (let round = 0; round < 5; round++)
        assert.equal(
          (await post(fake.app, "/api/auth/client", login("bob"), "192.0.2.200")).status,
          200,
          `bob signs in again (${round + 1}): a success gives its count back`,
        );
    } finally {
      await fake.close();
    }
  });

  it("9. throttling: password reset and MFA are limited per IP and per user too", async () => {
    const fake = await portalOnFake(happyUpstream({ verdict: "Failed" }), {
      env: { RATE_LIMIT_IP_PER_MINUTE: "3", RATE_LIMIT_USER_PER_MINUTE: "2", MFA_MAX_WRONG_CODES: "50" },
    });
    try {
      const reset = (email: string, ip: string) =>
        post(fake.app, "/api/web/reset-pwd", { clientShortName: "", emailAddress: email }, ip);
      assert.equal((await reset("a@vendor.example", "192.0.2.1")).status, 200);
      assert.equal((await reset("A@Vendor.example", "192.0.2.1")).status, 200);
      assertThrottled(await reset(" a@vendor.example ", "192.0.2.1"), "reset, same person and address");
      assert.equal((await reset("a@vendor.example", "192.0.2.2")).status, 200, "another address's own budget");
      assert.equal((await reset("b@vendor.example", "192.0.2.4")).status, 200);
      assert.equal((await reset("c@vendor.example", "192.0.2.4")).status, 200);
      assert.equal((await reset("d@vendor.example", "192.0.2.4")).status, 200);
      assertThrottled(await reset("e@vendor.example", "192.0.2.4"), "reset, same IP");

      const pending = await post(fake.app, "/api/auth/client", login("carol"), "192.0.2.9");
      const cookie = sessionCookie(pending);
      assert.equal((await post(fake.app, "/api/web/client/mfa/generate", undefined, "192.0.2.10", cookie)).status, 200);
      const first = await post(fake.app, "/api/web/client/mfa/validate/111111", undefined, "192.0.2.11", cookie);
      assert.equal(first.status, 200);
      assertThrottled(
        await post(fake.app, "/api/web/client/mfa/validate/222222", undefined, "192.0.2.12", cookie),
        "a third MFA call for carol",
      );
      assert.equal(fake.upstream.callsTo(/\/mfa\//).length, 2, "throttled codes were not forwarded");
    } finally {
      await fake.close();
    }
  });

  it("9. throttling: an unknown user and a wrong password get the same status, the same body and similar timing", async () => {
    // The sandbox's full cost: the one scrypt both spend is what the timing compares.
    const portal = await startPortalInProcess({ listen: false, fullPasswordCost: true });
    try {
      const wrong = login("alice", "Not-The-Password-1!");
      const unknown = login("nobody-here", DEMO_PASSWORD);
      const timings = { wrong: [] as number[], unknown: [] as number[] };
      const seen = new Set<string>();
      for (let round = 0; round < 12; round++) {
        for (const [kind, body] of [
          ["wrong", wrong],
          ["unknown", unknown],
        ] as const) {
          const started = performance.now();
          const answer = await post(portal.app, "/api/auth/client", body, "127.0.0.1");
          timings[kind].push(performance.now() - started);
          seen.add(`${answer.status} ${answer.text} cookie:${answer.headers["set-cookie"] !== undefined}`);
        }
      }
      assert.deepEqual([...seen], ['200 {"tokenHeld":false} cookie:false'], "one answer for both");
      const [a, b] = [median(timings.wrong), median(timings.unknown)];
      assert.ok(Math.max(a, b) < 3 * Math.min(a, b), `medians ${a.toFixed(1)} ms and ${b.toFixed(1)} ms`);
    } finally {
      await portal.close();
    }
  });
});

describe("the breaks SECURITY.md numbers B1 to B15", () => {
  it("B11: EVILCORP/bob's attempts do not lock out ACME/bob: throttles are keyed by site, company and user, trimmed and case-folded", async () => {
    const fake = await portalOnFake(happyUpstream({ verdict: "Failed" }), {
      env: { RATE_LIMIT_IP_PER_MINUTE: "100", RATE_LIMIT_USER_PER_MINUTE: "2", MFA_MAX_WRONG_CODES: "50" },
    });
    try {
      const pending = async (shortname: string, username: string, ip: string) => {
        const answer = await post(fake.app, "/api/auth/client", { shortname, username, password: "pw" }, ip);
        assert.equal(answer.json().tokenHeld, true, `${shortname}/${username} waits for a code`);
        return sessionCookie(answer);
      };
      const validate = (cookie: string, ip: string, code: string) =>
        post(fake.app, `/api/web/client/mfa/validate/${code}`, undefined, ip, cookie);

      const evil = await pending("EVILCORP", "bob", "198.51.100.66");
      assert.equal((await validate(evil, "198.51.100.66", "100001")).status, 200);
      assert.equal((await validate(evil, "198.51.100.66", "100002")).status, 200);
      assert.equal((await validate(evil, "198.51.100.66", "100003")).status, 429, "EVILCORP/bob used up his own");

      const acme = await pending("ACME", "bob", "192.0.2.80");
      assert.equal(
        (await validate(acme, "192.0.2.80", "200001")).status,
        200,
        "ACME/bob is not locked out by EVILCORP/bob",
      );
      const spelled = await pending(" evilcorp ", " BOB ", "198.51.100.67");
      assert.equal(
        (await validate(spelled, "198.51.100.67", "100004")).status,
        429,
        "' evilcorp '/' BOB ' is the same person as EVILCORP/bob",
      );
      assert.equal(fake.upstream.callsTo(/mfa\/validate/).length, 3, "throttled codes were not forwarded");
    } finally {
      await fake.close();
    }
  });

  it("B12: a flood of unique user names past 50,000 entries leaves the throttle's cost per attempt flat", async () => {
    const throttle = new Throttle(new MemoryCounters(Date.now), { perIp: 30, perUser: 10 });
    // Each attempt from its own address and for its own user name: every one adds entries.
    const attempt = async (index: number) => {
      const request = { ip: `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}` } as FastifyRequest;
      const person = `client/acme/flood-${index}`;
      await throttle.take("sign-in", request, person); // a failure: never given back
    };
    const timed = async (from: number, to: number) => {
      const started = performance.now();
      for (let index = from; index < to; index++) await attempt(index);
      return performance.now() - started;
    };
    const first = await timed(0, 2_000);
    await timed(2_000, 60_000);
    const later = await timed(60_000, 62_000);
    assert.ok(
      later < first * 5 + 50,
      `2,000 attempts took ${first.toFixed(0)} ms at first and ${later.toFixed(0)} ms past 60,000 user names`,
    );
  });
});

describe("a flood of made-up names from one address", () => {
  /** Each kind bounded at 1,000: a flood the address's limit let through would overflow its kinds a hundred times. */
  const small = Object.fromEntries(Object.keys(COUNTER_BOUNDS).map((kind) => [kind, 1_000])) as typeof COUNTER_BOUNDS;
  /** What others had before the flood: a pending sign-in's wrong codes, erin's known address and name, vera's pace gate. */
  const before = {
    "mfa|strikes|a-pending-sign-in": 2,
    "sign-in|known|client/acme/erin|198.51.100.7": 1,
    "sign-in|accepted|client/acme/erin": 1,
    "sign-in|pace|client/acme/vera": 1,
  };
  const counted = async (counters: MemoryCounters) => {
    for (const [key, count] of Object.entries(before))
      for (let hit = 0; hit < count; hit++) await counters.hit(key, KNOWN_ADDRESS_MS);
  };
  const still = async (counters: MemoryCounters) =>
    Object.fromEntries(
      await Promise.all(Object.keys(before).map(async (key) => [key, (await counters.peek(key)).count])),
    );

  /** `names` made-up names from one address, `perIp` attempts a minute allowed it: how many were refused. */
  const flood = async (counters: MemoryCounters, perIp: number, names: number) => {
    const throttle = new Throttle(counters, { perIp, perUser: 10 });
    const flooder = { ip: "203.0.113.200" } as FastifyRequest;
    let refused = 0;
    for (let index = 0; index < names; index++)
      if ((await throttle.take("sign-in", flooder, `client/acme/made-up-${index}`)).wait !== undefined) refused += 1;
    return refused;
  };

  it("leaves a pending sign-in's wrong-code count, known addresses and names, and pace gates as they were: 110,000 names, one address", async () => {
    const counters = new MemoryCounters(() => 1_000_000, small);
    await counted(counters);
    assert.equal(
      await flood(counters, 30, 110_000),
      110_000 - 30,
      "the address's limit refused all but 30 in the minute",
    );
    assert.ok(counters.size < 200, `${counters.size} counts kept: a refused attempt made none under its name`);
    assert.deepEqual(await still(counters), before);
  });

  it("leaves them as they were when the address's limit lets every name through: each kind has its own bound", async () => {
    const counters = new MemoryCounters(() => 1_000_000, small);
    await counted(counters);
    assert.equal(await flood(counters, 1_000_000, 11_000), 0);
    assert.ok(counters.size <= 3 * 1_000 + 4, `${counters.size} counts kept: the attempts' kinds each within 1,000`);
    assert.deepEqual(await still(counters), before);
  });

  it("from many addresses evicts at worst counts of its own kind: attempts' counts and pace gates push out nothing earned", async () => {
    const counters = new MemoryCounters(Date.now, small);
    await counted(counters);
    for (let index = 0; index < 5_000; index++) {
      await counters.hit(`sign-in|user|made-up-${index}|10.0.0.1`, 60_000);
      await counters.hit(`sign-in|pace|client/acme/made-up-${index}`, 60_000);
    }
    assert.deepEqual(
      await still(counters),
      { ...before, "sign-in|pace|client/acme/vera": 0 },
      "only the oldest gate went",
    );
    assert.equal((await counters.peek("sign-in|user|made-up-0|10.0.0.1")).count, 0, "the oldest attempt count went");
  });
});

describe("an address where a person's code passed", () => {
  it("stays known for 30 days after the last code that passed there, not the first", async () => {
    let clock = 1_000_000;
    const counters = new MemoryCounters(() => clock);
    const throttle = new Throttle(counters, { perIp: 30, perUser: 10 });
    const office = { ip: "198.51.100.7", auth: { stage: "signed-in" } } as unknown as FastifyRequest;
    const reply = { setCookie: () => undefined } as unknown as FastifyReply;
    const known = "sign-in|known|client/acme/erin|198.51.100.7";
    await (await throttle.take("mfa", office, "client/acme/erin", "pending")).passed(reply);
    clock += 20 * 24 * HOUR_MS;
    await (await throttle.take("mfa", office, "client/acme/erin", "pending")).passed(reply);
    clock += 20 * 24 * HOUR_MS; // 40 days after the first code, 20 after the last
    assert.equal((await counters.peek(known)).count, 1, "still known");
    clock += 11 * 24 * HOUR_MS;
    assert.equal((await counters.peek(known)).count, 0, "31 days after the last code: no longer known");
  });
});

describe("what failed sign-ins leave in Redis", () => {
  it("a name the upstream never accepted leaves only counts that end within minutes, per address at most a few per attempt; an accepted one's are hourly", async () => {
    const redis = await RedisServer.start();
    const stores = testStores(redis.url, { keyPrefix: "leave:" });
    const raw = new Redis(redis.url);
    try {
      await stores.ready();
      const throttle = new Throttle(stores.counters, { perIp: 30, perUser: 10 });
      const request = { ip: "198.51.100.40" } as FastifyRequest;
      for (let index = 0; index < 30; index++) await throttle.take("sign-in", request, `client/acme/made-up-${index}`);
      const keys = await raw.keys("leave:*");
      assert.ok(keys.length <= 2 * 30 + 1, `${keys.length} keys for 30 failed names from one address`);
      const lives = await Promise.all(keys.map((key) => raw.pttl(key)));
      assert.ok(Math.max(...lives) <= UNACCEPTED_WINDOW_MS, `the longest lives ${Math.max(...lives)} ms`);
      assert.ok(
        lives.every((life) => life > 0),
        "every one ends on its own",
      );

      // A person the upstream accepted once: their counts across addresses are hourly again.
      const accepted = await throttle.take("sign-in", request, "client/acme/erin");
      await accepted.passed({ setCookie: () => undefined } as unknown as FastifyReply);
      await throttle.take("sign-in", { ip: "203.0.113.41" } as FastifyRequest, "client/acme/erin");
      const across = await raw.pttl("leave:count:sign-in|person|client/acme/erin");
      assert.ok(across > UNACCEPTED_WINDOW_MS && across <= HOUR_MS, `erin's count across addresses lives ${across} ms`);
      assert.ok((await raw.pttl("leave:count:sign-in|accepted|client/acme/erin")) <= KNOWN_ADDRESS_MS);
    } finally {
      raw.disconnect();
      await stores.close();
      await redis.stop();
    }
  });
});

describe("limits that hold under races", () => {
  it("12. throttling: fifty parallel wrong passwords for one user reach the upstream only as often as the limit allows", async () => {
    const fake = await portalOnFake(happyUpstream({ refuseLogins: true }), {
      env: { RATE_LIMIT_USER_PER_MINUTE: "3", RATE_LIMIT_IP_PER_MINUTE: "1000" },
    });
    try {
      const attempt = () =>
        new PortalClient(fake.app).post("/api/auth/client", { shortname: "ACME", username: "bob", password: "x" });
      const statuses = (await Promise.all(Array.from({ length: 50 }, attempt))).map((answer) => answer.status);
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
        const answer = await new PortalClient(fake.app).post("/api/auth/client", {
          shortname: "ACME",
          username,
          password: "pw",
        });
        assert.equal(answer.status, 200, username);
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
      const visitor = await signIn(fake.app, accounts.alice, fake.code);
      const statuses: number[] = [];
      for (let guess = 0; guess < 5; guess++)
        statuses.push(
          (await visitor.post("/api/web/client/password/test", { userId: "alice", password: `g${guess}` })).status,
        );
      assert.deepEqual(statuses, [400, 400, 400, 429, 429]);
      assert.equal(fake.upstream.callsTo(/password\/test/).length, 3);
    } finally {
      await fake.close();
    }
  });
});

describe("guessing the current password from a stolen session", () => {
  it("is paced across the hour as a sign-in is: past the hourly bound of the person's failed tests, across sessions and addresses, each further one waits longer, told the real wait; the next hour opens it again", async () => {
    let clock = Date.UTC(2026, 10, 24, 9, 0);
    const fake = await portalOnFake(
      (call, response) =>
        call.path.includes("/password/test")
          ? sendJson(response, 400, { description: "The current password is not correct." })
          : happyUpstream()(call, response),
      {
        // Refused tests are no action of the person's: the idle limit would end the sessions before the hour does.
        env: { RATE_LIMIT_IP_PER_MINUTE: "30", RATE_LIMIT_USER_PER_MINUTE: "10", SESSION_IDLE_MINUTES: "120" },
        now: () => clock,
      },
    );
    try {
      // Two sessions of alice's, from two addresses: one person's budget.
      const sessions = [
        await signIn(new PortalClient(fake.app, { remoteAddress: "192.0.2.31" }), accounts.alice, fake.code),
        await signIn(new PortalClient(fake.app, { remoteAddress: "198.51.100.32" }), accounts.alice, fake.code),
      ];
      let sent = 0;
      const guess = () =>
        (sessions[sent++ % 2] as PortalClient).post("/api/web/client/password/test", {
          userId: "alice",
          password: `guess-${sent}`,
        });
      const tested = () => fake.upstream.callsTo(/password\/test/).length;
      /** One guess sent, waiting the Retry-After it is told first if any: that wait is always enough. */
      const obeying = async () => {
        const answer = await guess();
        if (answer.status === 429) {
          clock += Number(answer.headers["retry-after"]) * 1000;
          return assert.equal((await guess()).status, 400, `the wait told before guess ${tested() + 1} was enough`);
        }
        assert.equal(answer.status, 400, answer.text);
      };
      const hourly = 10 * PERSON_HOURLY_FACTOR;

      // As fast as each minute allows, obeying every Retry-After: the hourly bound's guesses all go.
      const start = clock;
      while (tested() < hourly) await obeying();
      assert.ok(clock - start < HOUR_MS / 5, "within the first minutes of the hour");
      clock += 60_000; // a new minute: only the hourly bound may hold what follows
      assert.equal((await guess()).status, 400, "the first past the bound goes");
      const refused = await guess();
      assertThrottled(refused, "the next, sent at once");
      assert.equal(refused.headers["retry-after"], "1", "it waits the real second the pace holds");
      clock += 1_000;
      assert.equal((await guess()).status, 400, "and goes after it");
      assert.equal((await guess()).headers["retry-after"], "2", "the one after that waits two");
      assert.equal(tested(), hourly + 2, "waiting guesses were not sent");

      // The rest of the hour, obeying every Retry-After: about 180 guesses in all, where 600 went before.
      while (clock - start < HOUR_MS - 2 * 60_000) await obeying();
      assert.ok(clock - start < HOUR_MS, "still within the hour");
      assert.ok(tested() >= 170 && tested() <= 185, `${tested()} guesses reached the upstream in the hour`);
      assertThrottled(await guess(), "one more sent at once");

      // The hour's window ends: the person's tests go again, ten a minute.
      clock = start + HOUR_MS;
      const before = tested();
      for (let index = 0; index < 10; index++) assert.equal((await guess()).status, 400, `${index} after the hour`);
      assert.equal(tested(), before + 10);
    } finally {
      await fake.close();
    }
  });
});

/** An upstream where only RIGHT is erin's password; every other sign-in is refused. */
const RIGHT = "Erins-Right-Password-1!";
const erinsUpstream = (): Answer => {
  const happy = happyUpstream();
  const refusing = happyUpstream({ refuseLogins: true });
  return (call, response) => {
    if (!/^\/auth\/client$/.test(call.path)) return happy(call, response);
    const { password } = JSON.parse(call.body || "{}") as { password?: string };
    return (password === RIGHT ? happy : refusing)(call, response);
  };
};
/** An upstream that passes only FAKE_UPSTREAM_CODE and refuses every other code. */
const codeCheckingUpstream = (): Answer => {
  const passing = happyUpstream();
  const failing = happyUpstream({ verdict: "Failed" });
  return (call, response) => {
    const code = /\/mfa\/validate\/([^/?]+)/.exec(call.path)?.[1];
    return (code === undefined || code === FAKE_UPSTREAM_CODE ? passing : failing)(call, response);
  };
};
const deviceCookie = (answer: { headers: Record<string, unknown> }) =>
  [answer.headers["set-cookie"] ?? []]
    .flat()
    .map(String)
    .find((cookie) => /^(__Host-)?portal-device=/.test(cookie))
    ?.split(";")[0];
const tokenHeld = (answer: { status: number; json(): unknown }) =>
  answer.status === 200 && (answer.json() as { tokenHeld?: boolean }).tokenHeld === true;

describe("an office signing in together behind one address", () => {
  it("spends none of the address's budget on its MFA codes: each person's own budget pays", async () => {
    const fake = await portalOnFake(happyUpstream(), {
      env: { RATE_LIMIT_IP_PER_MINUTE: "3", RATE_LIMIT_USER_PER_MINUTE: "10" },
    });
    try {
      for (let person = 1; person <= 6; person++) {
        const held = await post(fake.app, "/api/auth/client", login(`clerk-${person}`, "right"), "192.0.2.44");
        assert.ok(tokenHeld(held), `clerk ${person}'s password`);
        const cookie = sessionCookie(held);
        const sent = await post(fake.app, "/api/web/client/mfa/generate", undefined, "192.0.2.44", cookie);
        assert.equal(sent.status, 200, `clerk ${person}'s code is sent`);
        const code = `/api/web/client/mfa/validate/${FAKE_UPSTREAM_CODE}`;
        const verified = await post(fake.app, code, undefined, "192.0.2.44", sessionCookie(sent) || cookie);
        assert.equal(verified.status, 200, `clerk ${person}'s code passes`);
      }
    } finally {
      await fake.close();
    }
  });
});

describe("others cannot lock a person out, and one /64 is one address", () => {
  let redis: RedisServer;
  before(async () => {
    redis = await RedisServer.start();
  });
  after(() => redis.stop());

  for (const backend of ["memory", "redis"] as const) {
    const start = (answer: Answer, env: NodeJS.ProcessEnv, now?: () => number) =>
      portalOnFake(answer, {
        env: {
          ...env,
          ...(backend === "redis" ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `throttle-${randomUUID()}:` } : {}),
        },
        ...(now ? { now } : {}),
        ...(backend === "redis" ? { redisCommandMs: SHARED_COUNTS_REDIS_MS } : {}), // every count reaches Redis
      });

    it(`${backend}: wrong passwords for erin from 1,000 addresses, in any spelling, never stop her right password from her known address or her device; a new address is slowed, not refused for good`, async () => {
      const fake = await start(erinsUpstream(), { RATE_LIMIT_IP_PER_MINUTE: "30", RATE_LIMIT_USER_PER_MINUTE: "3" });
      try {
        const erin = (password: string, ip: string, spelling = "erin", cookie?: string) =>
          post(fake.app, "/api/auth/client", { shortname: "ACME", username: spelling, password }, ip, cookie);
        const first = await erin(RIGHT, "192.0.2.10");
        assert.ok(tokenHeld(first), "erin's password is right");
        assert.equal(deviceCookie(first), undefined, "a password alone earns no device cookie");
        const code = `/api/web/client/mfa/validate/${FAKE_UPSTREAM_CODE}`;
        const verified = await post(fake.app, code, undefined, "192.0.2.10", sessionCookie(first));
        assert.equal(verified.status, 200, verified.text);
        const device = deviceCookie(verified);
        assert.ok(device, "her code passed: she is signed in from her office, and her browser is her device");
        assert.match(
          String([verified.headers["set-cookie"]].flat().find((c) => String(c).includes("portal-device"))),
          /HttpOnly/i,
        );

        const spellings = ["erin", " ERIN ", "Erin", "eRiN"];
        for (let index = 0; index < 1_000; index++)
          await erin(`guess-${index}`, `10.0.${index >> 8}.${index & 255}`, spellings[index % spellings.length]);
        const reached = fake.upstream.callsTo(/^\/auth\/client$/).length - 1;
        assert.ok(
          reached <= 3 * 10 + 10,
          `the slowing held the guesses to ${reached} in a minute, across 1,000 addresses`,
        );

        assert.ok(
          tokenHeld(await erin(RIGHT, "192.0.2.10", " ERIN ")),
          "her right password from her office still works",
        );
        assert.ok(tokenHeld(await erin(RIGHT, "203.0.113.77", "Erin", device)), "and from anywhere on her own device");
        const link = await post(fake.app, "/api/auth/client-token?uuid=erins-link", undefined, "203.0.113.80");
        assert.ok(tokenHeld(link), "and by a sign-in link mailed to her, from a new address");
        // The slowing admits one attempt at a time: of two sent together from new addresses, the second waits.
        const [one, two] = [await erin(RIGHT, "203.0.113.78"), await erin(RIGHT, "203.0.113.79")];
        assert.ok(one.status === 429 || tokenHeld(one), "the first may go");
        assertThrottled(two, "from a new address, without her device, she is slowed (not refused for good)");
      } finally {
        await fake.close();
      }
    });

    it(`${backend}: someone who knows only victor's password cannot keep him from passing MFA on his own device: his code and "Send again" spend his device's budget, which wrong codes from elsewhere never reach`, async () => {
      const clock = Date.now();
      const fake = await start(
        codeCheckingUpstream(),
        { RATE_LIMIT_IP_PER_MINUTE: "30", RATE_LIMIT_USER_PER_MINUTE: "10", MFA_MAX_WRONG_CODES: "5" },
        () => clock,
      );
      try {
        const victor = (ip: string, cookie?: string) =>
          post(fake.app, "/api/auth/client", login("victor", "right"), ip, cookie);
        const validate = (code: string, ip: string, cookie: string) =>
          post(fake.app, `/api/web/client/mfa/validate/${code}`, undefined, ip, cookie);
        const generate = (ip: string, cookie: string) =>
          post(fake.app, "/api/web/client/mfa/generate", undefined, ip, cookie);

        const first = await victor("192.0.2.30");
        const passed = await validate(FAKE_UPSTREAM_CODE, "192.0.2.30", sessionCookie(first));
        assert.equal(passed.status, 200, passed.text);
        const device = deviceCookie(passed);
        assert.ok(device, "victor's browser is his device");

        // Two sign-ins with his password from elsewhere, each ended by its fifth wrong code: ten wrong codes a minute.
        for (const ip of ["203.0.113.50", "203.0.113.51"]) {
          const held = await victor(ip);
          assert.ok(tokenHeld(held), "the attacker's password passes");
          let cookie = sessionCookie(held);
          for (let wrong = 1; wrong <= 5; wrong++) {
            const answer = await validate("999999", ip, cookie);
            assert.equal(answer.status, 200, `wrong code ${wrong} from ${ip}: refused by the upstream, not throttled`);
            cookie = sessionCookie(answer) || cookie;
          }
        }
        const third = await victor("203.0.113.52");
        assertThrottled(await generate("203.0.113.52", sessionCookie(third)), "the attacker's next MFA call");

        // Victor on his own browser, from a new address: his password, "Send again" and his stored code all go through.
        const own = await victor("198.51.100.60", device);
        assert.ok(tokenHeld(own), "his password passes on his device");
        const cookies = `${sessionCookie(own)}; ${device}`;
        const sent = await generate("198.51.100.60", cookies);
        assert.equal(sent.status, 200, `"Send again" on his device: ${sent.text}`);
        const mine = await validate(
          FAKE_UPSTREAM_CODE,
          "198.51.100.60",
          `${sessionCookie(sent) || sessionCookie(own)}; ${device}`,
        );
        assert.equal(mine.status, 200, `his stored code on his device: ${mine.text}`);
        assert.equal(readVerdict(mine.json()).passed, true, "and it signs him in");
      } finally {
        await fake.close();
      }
    });

    it(`${backend}: past a person's bound across addresses each further attempt waits longer than the one before`, async () => {
      // A name never accepted is counted across addresses per 6 minutes, with a tenth of the hourly bound: 10 here.
      let clock = Date.now();
      const fake = await start(
        happyUpstream({ refuseLogins: true }),
        { RATE_LIMIT_IP_PER_MINUTE: "100", RATE_LIMIT_USER_PER_MINUTE: "10" },
        () => clock,
      );
      /** In memory, the portal's clock moves; Redis keeps its windows by its own clock, so there the pace's ends. */
      const aSecondPasses = async () => {
        clock += 1_000;
        if (backend === "memory") return;
        const raw = new Redis(redis.url);
        try {
          const gates = await raw.keys(`${fake.portal.config.redis.keyPrefix}*|pace|*`);
          assert.equal(gates.length, 1, `one pace for dave: ${gates}`);
          const left = await raw.pttl(String(gates[0]));
          assert.ok(left > 0 && left <= 1_000, `the pace ends within the second: ${left} ms left`);
          await raw.del(String(gates[0]));
        } finally {
          raw.disconnect();
        }
      };
      try {
        const guess = (index: number) => post(fake.app, "/api/auth/client", login("dave"), `198.51.100.${index}`);
        for (let index = 1; index <= 10; index++) assert.equal((await guess(index)).status, 200, `${index}`);
        assert.equal((await guess(11)).status, 200, "the first past the bound goes");
        const waitAfter = async (index: number) => Number((await guess(index)).headers["retry-after"]);
        assert.equal(await waitAfter(12), 1, "the next waits a second");
        await aSecondPasses();
        assert.equal((await guess(13)).status, 200, "and goes after it");
        assert.equal(await waitAfter(14), 2, "the one after that waits two");
        assert.equal(fake.upstream.callsTo(/^\/auth\/client$/).length, 12, "waiting attempts were not forwarded");
      } finally {
        await fake.close();
      }
    });

    it(`${backend}: one address's failures are throttled in any spelling of the ID, and 11 addresses of one /64 share its budget`, async () => {
      const fake = await start(happyUpstream({ refuseLogins: true }), {
        RATE_LIMIT_IP_PER_MINUTE: "10",
        RATE_LIMIT_USER_PER_MINUTE: "3",
      });
      try {
        for (const spelling of ["erin", " ERIN ", "Erin"])
          assert.equal((await post(fake.app, "/api/auth/client", login(spelling), "198.51.100.5")).status, 200);
        assertThrottled(await post(fake.app, "/api/auth/client", login("eRIN"), "198.51.100.5"), "a fourth spelling");

        const statuses: number[] = [];
        for (let index = 1; index <= 11; index++)
          statuses.push(
            (await post(fake.app, "/api/auth/client", login(`user-${index}`), `2001:db8:7:9::${index.toString(16)}`))
              .status,
          );
        assert.deepEqual(statuses, [...Array(10).fill(200), 429], "ten from the /64, then refused");
        const other = await post(fake.app, "/api/auth/client", login("user-12"), "2001:db8:7:a::1");
        assert.equal(other.status, 200, "another /64 has its own");
      } finally {
        await fake.close();
      }
    });

    it(`${backend}: a reset never makes its address known: resets for erin from anywhere, her own address included, are slowed past the hourly bound`, async () => {
      // The clock stands still: the 200 resets fall in one minute's window, however long the machine takes.
      const at = Date.now();
      const fake = await start(
        happyUpstream(),
        { RATE_LIMIT_IP_PER_MINUTE: "30", RATE_LIMIT_USER_PER_MINUTE: "2" },
        () => at,
      );
      try {
        const reset = (email: string, ip: string) =>
          post(fake.app, "/api/web/reset-pwd", { clientShortName: "ACME", emailAddress: email }, ip);
        assert.equal((await reset("erin@acme.example", "192.0.2.20")).status, 200, "erin asks once");
        for (let index = 0; index < 200; index++)
          await reset(" ERIN@acme.example", `10.1.${index >> 8}.${index & 255}`);
        assert.ok(fake.upstream.callsTo(/reset-pwd/).length <= 2 + 2, "the mails to erin were slowed");
        assertThrottled(await reset("erin@acme.example", "192.0.2.20"), "where she asked before is slowed too");
      } finally {
        await fake.close();
      }
    });
  }
});

describe("a call that never reached the upstream", () => {
  it("never counts as a failed attempt: sign-ins to an unreachable upstream answer 502 every time, never 429", async () => {
    const portal = await startPortalInProcess({
      listen: false,
      upstreamUrl: await downUpstreamUrl(),
      env: { RATE_LIMIT_USER_PER_MINUTE: "2", RATE_LIMIT_IP_PER_MINUTE: "3" },
    });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++)
        statuses.push((await post(portal.app, "/api/auth/client", login("bob"), "192.0.2.60")).status);
      assert.deepEqual(statuses, [502, 502, 502, 502, 502]);
    } finally {
      await portal.close();
    }
  });
});
