// `npm run sandbox`: the sandbox alone, an upstream on 127.0.0.1 that a portal elsewhere reaches by UPSTREAM_URL.
import { startSandbox } from "#sandbox/app.ts";
import { sandboxSettings } from "#sandbox/settings.ts";

async function main() {
  const settings = sandboxSettings(process.env);
  const sandbox = await startSandbox({ dbPath: settings.dbPath, portalUrl: settings.portalUrl, port: settings.port });
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
