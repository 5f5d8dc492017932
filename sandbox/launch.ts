// What `npm start` runs: the portal on its embedded sandbox when UPSTREAM_URL is unset (the sandbox first, then the
// portal with its address, reached over HTTP like any upstream), else the portal alone, never loading the sandbox.
import type { FastifyBaseLogger } from "fastify";
import { ConfigError, loadConfig } from "#server/config.ts";
import { publicUrlOf, startPortal, startTracingIfSet } from "#server/portal.ts";

async function launch() {
  const config = loadConfig();
  await startTracingIfSet(config);
  if (config.upstreamUrl !== undefined) {
    await startPortal(config);
    return;
  }
  const publicUrl = publicUrlOf(config);
  const mailUrl = `${publicUrl}/sandbox/mail`;
  // Set once the portal is built; mail is only sent on requests, after that.
  let log: FastifyBaseLogger | undefined;
  // Imported only without an upstream, so a start in front of one never loads the sandbox or node:sqlite.
  const sandbox = await (await import("#sandbox/app.ts")).startSandbox({
    dbPath: config.sandboxDb,
    portalUrl: publicUrl,
    // Development says that a mail came, never what it holds: codes, passwords and links stay at /sandbox/mail.
    ...(config.env === "development"
      ? {
          onMail: (mail) =>
            log?.info({ sandboxOnly: true, to: mail.to, subject: mail.subject }, `sandbox mail, read it at ${mailUrl}`),
        }
      : {}),
  });
  const app = await startPortal(config, sandbox);
  log = app.log;
  if (config.env === "production") {
    app.log.warn(
      { sandbox: sandbox.url },
      "SANDBOX=true: demo accounts and their mail at /sandbox/mail, no real upstream",
    );
  } else {
    app.log.info({ sandbox: sandbox.url }, "the embedded sandbox is the upstream");
    const { sandboxBanner } = await import("#sandbox/banner.ts");
    console.log(sandboxBanner(publicUrl));
  }
}

launch().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
