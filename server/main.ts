// Starts the portal: configuration, the embedded sandbox when no upstream is set, listen, and a graceful stop.
import closeWithGrace from "close-with-grace";
import type { FastifyBaseLogger } from "fastify";
import { buildApp } from "#server/app.ts";
import { ConfigError, loadConfig } from "#server/config.ts";
import { isEveryInterface, isLoopback } from "#server/loopback.ts";
import { shutdownGraceMs } from "#server/shutdown.ts";
import { developmentLogger, listenFailure } from "#server/startup.ts";

async function main() {
  const config = loadConfig();
  // Before any app is built: the instrumentation hooks into each Fastify app as it is created.
  const { endpoint, serviceName } = config.tracing;
  if (endpoint) (await import("#server/tracing.ts")).startTracing({ endpoint, serviceName });
  const local = isLoopback(config.host) || isEveryInterface(config.host);
  const publicUrl = config.publicUrl ?? `http://${local ? "localhost" : config.host}:${config.port}`;
  const mailUrl = `${publicUrl}/sandbox/mail`;
  // Set once the app is built; mail is only sent on requests, after that.
  let log: FastifyBaseLogger | undefined;
  // Imported only without an upstream, so a production start never loads the sandbox or its SQLite addon.
  const sandbox = config.upstreamUrl
    ? undefined
    : await (await import("#server/sandbox/app.ts")).startSandbox({
        dbPath: config.sandboxDb,
        portalUrl: publicUrl,
        // Development says that a mail came, never what it holds: codes, passwords and links stay at /sandbox/mail.
        ...(config.env === "development"
          ? {
              onMail: (mail) =>
                log?.info(
                  { sandboxOnly: true, to: mail.to, subject: mail.subject },
                  `sandbox mail, read it at ${mailUrl}`,
                ),
            }
          : {}),
      });
  const app = await buildApp({
    config,
    upstreamUrl: config.upstreamUrl ?? (sandbox?.url as string),
    sandbox: Boolean(sandbox),
    ...(config.env === "development" ? { logger: await developmentLogger(config.logLevel) } : {}),
  });
  log = app.log;
  app.server.requestTimeout = 30_000;
  app.server.keepAliveTimeout = 65_000;
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const line = listenFailure(error, config.host, config.port);
    if (!line) throw error;
    console.error(line);
    process.exit(1);
  }
  if (sandbox && config.env === "production") {
    app.log.warn(
      { sandbox: sandbox.url },
      "SANDBOX=true: demo accounts and their mail at /sandbox/mail, no real upstream",
    );
  } else if (sandbox) {
    app.log.info({ sandbox: sandbox.url }, "the embedded sandbox is the upstream");
    const { sandboxBanner } = await import("#server/sandbox/banner.ts");
    console.log(sandboxBanner(publicUrl));
  }

  // SIGTERM, SIGINT or an uncaught error: stop taking requests, finish those in flight, send the queued page visits
  // within their own deadline (an onClose hook of the app), then exit; a second signal, or the grace, ends it at once.
  closeWithGrace({ delay: shutdownGraceMs(config.upstreamTimeoutMs), logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "stopping after an uncaught error");
    app.log.info({ signal }, "shutting down");
    await app.close();
    await sandbox?.close();
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
