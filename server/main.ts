// Starts the portal alone, in front of the upstream UPSTREAM_URL names. `npm start` runs sandbox/launch.ts instead,
// which starts the embedded sandbox first when UPSTREAM_URL is unset.
import { ConfigError, loadConfig } from "#server/config.ts";
import { startPortal, startTracingIfSet } from "#server/portal.ts";

async function main() {
  const config = loadConfig();
  if (config.upstreamUrl === undefined) {
    console.error(
      "UPSTREAM_URL is unset: server/main.js starts the portal in front of an upstream only; `npm start` starts it on its embedded sandbox",
    );
    process.exit(1);
  }
  await startTracingIfSet(config);
  await startPortal(config);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
