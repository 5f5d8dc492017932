// Benchmark 11: each wrapper the portal puts around a library's insides, beside the library used plainly (issue 32: a
// wrapper stays only if it saves at least 10 % of its request's CPU). The portal's source is built twice, as it is and
// with the wrapper's module replaced by a plain use of the library (scripts/bench/plain/), each build in a process of
// its own in front of one upstream, and the request the wrapper serves is measured on both, side by side.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { build, type Plugin } from "esbuild";
import type { PortalClient } from "#harness/portal-client.ts";
import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { type LoadOptions, type Side, sideBySide } from "#scripts/bench/load.ts";
import { gatedPageOf, visitorsOf } from "#scripts/bench/page-views.ts";
import { startBuiltPortal, startUpstream } from "#scripts/bench/portal.ts";
import type { Server } from "#scripts/bench/processes.ts";
import { describeSide, type Row } from "#scripts/bench/report.ts";
import { apiThrough } from "#scripts/bench/throughput.ts";
import { serverBuildOptions } from "#scripts/build.ts";

const root = new URL("../..", import.meta.url).pathname;

/** The least share of its request's CPU a wrapper must save to be kept (issue 32). */
const LEAST_SAVING = 0.1;

type Pair = { wrapped: Server; plain: Server; metricsToken: string };

type Wrapper = {
  /** The portal's module that holds the wrapper, as the portal imports it. */
  module: string;
  /** The module used in its place: the library used plainly, with the same exports. */
  plain: string;
  /** The rows: the request the wrapper serves, measured on both portals. */
  rows: { name: string; request: string; measure(pair: Pair, options: LoadOptions): Promise<[Side, Side]> }[];
};

const signedIn = async (portal: Server): Promise<PortalClient> => {
  const client = await signIn(portal.url, accounts.alice, fakeUpstreamCode);
  if (!client) throw new Error("wrappers bench: a sign-in failed");
  return client;
};

const typedCall = "Wrapper: openapi-fetch handed its own Request (server/upstream/upstream-call.ts) ÷ the platform's";

const wrappers: Wrapper[] = [
  {
    module: "#server/upstream/upstream-call.ts",
    plain: "scripts/bench/plain/upstream-call.ts",
    rows: [
      {
        name: `11a. ${typedCall}`,
        request: "a signed-in page, every view a visit to record: one typed call each",
        measure: async ({ wrapped, plain, metricsToken }, options) => {
          const [own, platform] = await Promise.all([
            visitorsOf(wrapped, metricsToken),
            visitorsOf(plain, metricsToken),
          ]);
          return sideBySide(
            { ...own.everyViewAVisit, label: "own Request" },
            { ...platform.everyViewAVisit, label: "platform Request" },
            options,
          );
        },
      },
      {
        name: `11b. ${typedCall}`,
        request: "the /api password test: one typed call each",
        measure: async ({ wrapped, plain }, options) =>
          sideBySide(
            apiThrough("own Request", wrapped, await signedIn(wrapped)),
            apiThrough("platform Request", plain, await signedIn(plain)),
            options,
          ),
      },
    ],
  },
  {
    module: "#server/plugins/security-headers.ts",
    plain: "scripts/bench/plain/security-headers.ts",
    rows: [
      {
        name: "11c. Wrapper: helmet's middleware built once per policy (server/plugins/security-headers.ts) ÷ @fastify/helmet",
        request: "a signed-in page",
        measure: async ({ wrapped, plain }, options) =>
          sideBySide(
            gatedPageOf("built once", wrapped, await signedIn(wrapped)),
            gatedPageOf("@fastify/helmet", plain, await signedIn(plain)),
            options,
          ),
      },
    ],
  },
];

/**
 * The portal's server built into `artifacts/bench/builds/<name>/`, the wrapper's module (if any) replaced by its plain
 * one; its main, from the project's root. Built from the same source as dist/, with the same options.
 */
async function buildPortal(name: string, wrapper?: Wrapper): Promise<string> {
  const outdir = join(root, "artifacts/bench/builds", name);
  rmSync(outdir, { recursive: true, force: true });
  await build({ ...serverBuildOptions(outdir, { "server/main": "server/main.ts" }), plugins: [plainLibrary(wrapper)] });
  return relative(root, join(outdir, "server/main.js"));
}

/** Puts the wrapper's plain module where the portal imports the wrapper's own (none without a wrapper). */
function plainLibrary(wrapper: Wrapper | undefined): Plugin {
  const plainPath = wrapper && join(root, wrapper.plain);
  return {
    name: "plain-library",
    setup(esbuild) {
      if (!wrapper) return;
      const exact = new RegExp(`^${wrapper.module.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
      // The plain module may import the wrapper's own module, for what is not the wrapper (its constants).
      esbuild.onResolve({ filter: exact }, (args) => (args.importer === plainPath ? undefined : { path: plainPath }));
    },
  };
}

/** Builds each wrapper's plain side in memory, so a plain module that lacks an export the portal imports fails. */
export async function buildPlainSides(): Promise<string[]> {
  for (const wrapper of wrappers) {
    const options = serverBuildOptions(join(root, "artifacts/bench/builds/check"), { "server/main": "server/main.ts" });
    await build({ ...options, plugins: [plainLibrary(wrapper)], write: false, logLevel: "silent" });
  }
  return wrappers.map((wrapper) => wrapper.plain);
}

/** A row of what the wrapper saves: its request's CPU with the wrapper ÷ with the library used plainly. */
function savingRow(name: string, request: string, [wrapped, plain]: [Side, Side]): Row {
  const ratio = wrapped.cpuMicrosPerRequest / plain.cpuMicrosPerRequest;
  return {
    name: `${name} (${request}; CPU)`,
    subject: describeSide(wrapped),
    reference: describeSide(plain),
    result: `${ratio.toFixed(2)} (CPU/req): saves ${((1 - ratio) * 100).toFixed(1)} %`,
    goal: `saves ≥ ${LEAST_SAVING * 100} % (≤ ${(1 - LEAST_SAVING).toFixed(2)})`,
    met: ratio <= 1 - LEAST_SAVING,
  };
}

export async function wrapperBenches(options: LoadOptions): Promise<Row[]> {
  const [asBuilt, plainBuilds] = await Promise.all([
    buildPortal("portal"),
    Promise.all(
      wrappers.map(async (wrapper) => ({
        wrapper,
        main: await buildPortal(`plain-${basename(wrapper.module, ".ts")}`, wrapper),
      })),
    ),
  ]);
  const upstream = await startUpstream();
  const rows: Row[] = [];
  try {
    for (const { wrapper, main } of plainBuilds) {
      const metricsToken = randomBytes(24).toString("hex");
      const env = { METRICS_TOKEN: metricsToken };
      const started: Server[] = [];
      try {
        const wrapped = await startBuiltPortal(upstream.url, env, [], asBuilt);
        started.push(wrapped);
        const plain = await startBuiltPortal(upstream.url, env, [], main);
        started.push(plain);
        for (const row of wrapper.rows)
          rows.push(savingRow(row.name, row.request, await row.measure({ wrapped, plain, metricsToken }, options)));
      } finally {
        await Promise.all(started.map((server) => server.stop()));
      }
    }
    return rows;
  } finally {
    await upstream.stop();
  }
}
