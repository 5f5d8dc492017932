// Starts the portal in front of an upstream it reaches over HTTP: build, listen, and a graceful stop. It knows no
// sandbox: sandbox/launch.ts starts one first when no upstream is set and passes its address here.
import closeWithGrace from "close-with-grace";
import type { FastifyInstance } from "fastify";
import { buildApp } from "#server/app.ts";
import type { Config } from "#server/config.ts";
import { shutdownGraceMs, stopTimings } from "#server/plugins/shutdown.ts";
import { isEveryInterface, isLoopback } from "#server/security/loopback.ts";
import { developmentLogger, listenFailure } from "#server/startup.ts";

/** The upstream the portal runs against, when it is not UPSTREAM_URL: the embedded sandbox's address. */
export interface EmbeddedUpstream {
  url: string;
  /** Called after the portal has closed, at the stop. */
  close(): Promise<void>;
}

/** The portal's own address as links and the banner give it: PUBLIC_URL, else localhost on loopback. */
export function publicUrlOf(config: Config): string {
  const local = isLoopback(config.host) || isEveryInterface(config.host);
  return config.publicUrl ?? `http://${local ? "localhost" : config.host}:${config.port}`;
}

/** Before any app is built (the instrumentation hooks into each Fastify app as it is created). */
export async function startTracingIfSet(config: Config): Promise<void> {
  const { endpoint, serviceName } = config.tracing;
  if (endpoint) (await import("#server/plugins/tracing.ts")).startTracing({ endpoint, serviceName });
}

/**
 * Builds the portal and listens; SIGTERM, SIGINT or an uncaught error then stop it gracefully (and the embedded
 * upstream after it). A port in use ends the process with one line.
 */
export async function startPortal(config: Config, embedded?: EmbeddedUpstream): Promise<FastifyInstance> {
  const upstreamUrl = config.upstreamUrl ?? embedded?.url;
  if (upstreamUrl === undefined) throw new Error("The portal needs an upstream: UPSTREAM_URL, or an embedded one.");
  const app = await buildApp({
    config,
    upstreamUrl,
    sandbox: embedded !== undefined,
    ...(config.env === "development" ? { logger: await developmentLogger(config.logLevel) } : {}),
  });
  app.server.keepAliveTimeout = 65_000;
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const line = listenFailure(error, config.host, config.port);
    if (!line) throw error;
    console.error(line);
    process.exit(1);
  }
  // SIGTERM, SIGINT or an uncaught error: stop taking requests, finish those in flight, send the queued page visits
  // within their own deadline (an onClose hook of the app), then exit; a second signal, or the grace, ends it at once.
  const grace = shutdownGraceMs(config.upstreamTimeoutMs, stopTimings(config.stopScale));
  closeWithGrace({ delay: grace, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "stopping after an uncaught error");
    app.log.info({ signal }, "shutting down");
    await app.close();
    await embedded?.close();
  });
  return app;
}
