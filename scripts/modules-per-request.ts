// How many of the portal's own modules (server/ and web/) run at least one function during one request, by V8's precise
// coverage: the portal's goal is that a signed-in page view and an MFA validate call each run at most 30 of them, so a
// request stays a short path through the code. The portal runs in this process in front of the fake upstream; each
// request is made once first, so what loads lazily is not counted. `--list` prints the modules too.
import { Session } from "node:inspector/promises";
import { Writable } from "node:stream";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { portalOnFake } from "#tests/support/portal-on-fake.ts";

/** The requests measured: each made with a client in the state it needs, and checked by its answer's status. */
type Measured = { name: string; prepare(): Promise<PortalClient>; send(client: PortalClient): Promise<number> };

const ROOT = new URL("../", import.meta.url).href;
const OWN = [`${ROOT}server/`, `${ROOT}web/`];
const list = process.argv.includes("--list");

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

/** The portal's files with a function called since the last take (a take resets the counts). */
async function modulesRun(): Promise<string[]> {
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const files = new Set<string>();
  for (const script of result) {
    const url = script.url.split("?")[0] ?? "";
    if (!OWN.some((folder) => url.startsWith(folder)) || !/\.tsx?$/.test(url)) continue;
    if (script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) files.add(url.slice(ROOT.length));
  }
  return [...files].sort();
}

/** Lets what a request left queued (its page visit sent upstream, say) finish before a take. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const fake = await portalOnFake(undefined, { logs: discard });
try {
  const signedIn = await signIn(fake.app, accounts.alice, fake.code);
  const alice = accounts.alice;
  const measured: Measured[] = [
    {
      name: "a signed-in page view",
      // A browser's page load: the session cookie, and no islands' header.
      prepare: async () => signedIn.copy(fake.app, { islandsHeader: false }),
      send: async (client) => (await client.get("/client/home")).status,
    },
    {
      // The fake upstream passes any code, which ends the pending sign-in: each call gets a sign-in of its own.
      name: "an MFA validate call",
      prepare: async () => {
        const client = new PortalClient(fake.app);
        const login = { shortname: alice.shortname, username: alice.username, password: DEMO_PASSWORD };
        const answer = await client.post("/api/auth/client", login);
        if (answer.json().tokenHeld !== true) throw new Error(`the password step failed: ${answer.text}`);
        return client;
      },
      // As web/components/mfa-step.tsx sends it: the islands' header, and no body, so no content-type (openapi-fetch
      // sets none without a body; `content-type: application/json` with an empty body is refused with a 400).
      send: async (client) => (await client.post(`/api/web/client/mfa/validate/${await fake.code(alice)}`)).status,
    },
  ];
  for (const { name, prepare, send } of measured) {
    const warm = await send(await prepare());
    const client = await prepare();
    await settle();
    await modulesRun();
    const status = await send(client);
    await settle();
    const modules = await modulesRun();
    if (warm !== 200 || status !== 200) throw new Error(`${name} answered ${warm}, then ${status}`);
    console.log(`${name}: ${modules.length} modules`);
    if (list) for (const module of modules) console.log(`  ${module}`);
  }
} finally {
  await fake.close();
  session.disconnect();
}
