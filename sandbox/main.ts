// `npm run sandbox`: the sandbox alone, an upstream on 127.0.0.1 that a portal elsewhere reaches by UPSTREAM_URL.
import { once } from "node:events";
import { createServer } from "node:net";
import { startSandbox } from "#sandbox/app.ts";
import { sandboxSettings } from "#sandbox/settings.ts";

/** Fails with the portal's kind of hint when the port is taken, before the database file is created. */
async function ensurePortFree(port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    probe.listen(port, "127.0.0.1");
    await once(probe, "listening");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new Error(`Port ${port} is in use; set SANDBOX_PORT to another port.`);
    }
    throw error;
  } finally {
    probe.close();
  }
  await once(probe, "close");
}

async function main() {
  const settings = sandboxSettings(process.env);
  await ensurePortFree(settings.port);
  const sandbox = await startSandbox({
    dbPath: settings.dbPath,
    portalUrl: settings.portalUrl,
    port: settings.port,
    // No portal relays its pages: a mailed reset link opens the sandbox's own.
    ownPages: true,
  });
  console.log(
    `sandbox: listening at ${sandbox.url}; a portal runs against it with UPSTREAM_URL=${sandbox.url} npm start`,
  );
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
