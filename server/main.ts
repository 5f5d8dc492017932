// Starts the portal: configuration, the embedded sandbox when no upstream is set, listen, and a graceful stop.
import { buildApp } from "#server/app.ts";
import { ConfigError, loadConfig } from "#server/config.ts";
import { startSandbox } from "#server/sandbox/app.ts";

async function main() {
  const config = loadConfig();
  const publicUrl =
    config.publicUrl ?? `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}`;
  const sandbox = config.upstreamUrl
    ? undefined
    : await startSandbox({ dbPath: config.sandboxDb, portalUrl: publicUrl });
  const app = await buildApp({
    config,
    upstreamUrl: config.upstreamUrl ?? (sandbox?.url as string),
    sandbox: Boolean(sandbox),
  });
  app.server.requestTimeout = 30_000;
  app.server.keepAliveTimeout = 65_000;
  await app.listen({ host: config.host, port: config.port });
  if (sandbox) app.log.info(`sandbox upstream at ${sandbox.url}; its mailbox: ${publicUrl}/sandbox/mail`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    await app.close();
    await sandbox?.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
