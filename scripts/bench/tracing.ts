// Benchmark 9: what tracing costs. The same build twice, side by side: OTEL_EXPORTER_OTLP_ENDPOINT set (to a collector
// in this process that takes every export) and unset, on the /api call and the gated page.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { type LoadOptions, sideBySide } from "#scripts/bench/load.ts";
import { gatedPageOf } from "#scripts/bench/page-views.ts";
import { startBuiltPortal, startUpstream } from "#scripts/bench/portal.ts";
import type { Server } from "#scripts/bench/processes.ts";
import { type Row, ratioRow } from "#scripts/bench/report.ts";
import { apiThrough } from "#scripts/bench/throughput.ts";

export async function tracingBenches(options: LoadOptions): Promise<Row[]> {
  // A collector that reads each export to its end and accepts it.
  const collector = createServer((request, response) => {
    request.resume().on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  const servers: Server[] = [];
  try {
    const upstream = await startUpstream();
    servers.push(upstream);
    const on = await startBuiltPortal(upstream.url, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    servers.push(on);
    const off = await startBuiltPortal(upstream.url);
    servers.push(off);
    const [onClient, offClient] = await Promise.all(
      [on, off].map((portal) => signIn(portal.url, accounts.alice, fakeUpstreamCode)),
    );
    if (!onClient || !offClient) throw new Error("tracing bench: a sign-in failed");
    return [
      ratioRow(
        "9a. Tracing: /api call with OTEL_EXPORTER_OTLP_ENDPOINT set ÷ unset (CPU)",
        await sideBySide(apiThrough("tracing on", on, onClient), apiThrough("tracing off", off, offClient), options),
        "cpu",
        {},
      ),
      ratioRow(
        "9b. Tracing: gated page with OTEL_EXPORTER_OTLP_ENDPOINT set ÷ unset (CPU)",
        await sideBySide(gatedPageOf("tracing on", on, onClient), gatedPageOf("tracing off", off, offClient), options),
        "cpu",
        {},
      ),
    ];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await new Promise((resolve) => collector.close(resolve));
  }
}
