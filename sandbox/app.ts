// The sandbox upstream: a real HTTP implementation of openapi/portal.yaml the portal runs against by default.
import Fastify, { type FastifyInstance } from "fastify";
import { registerAuthRoutes } from "#sandbox/auth-routes.ts";
import { openDatabase } from "#sandbox/db.ts";
import { installBodyParsers, installErrorHandling, type SandboxContext } from "#sandbox/http.ts";
import { createMailbox, type StoredMail } from "#sandbox/mailbox.ts";
import { FULL_COST, TEST_COST } from "#sandbox/passwords.ts";
import { registerResetRoutes } from "#sandbox/reset-routes.ts";
import { registerSandboxRoutes } from "#sandbox/sandbox-routes.ts";
import { seedIfEmpty } from "#sandbox/seed.ts";
import { registerWebRoutes } from "#sandbox/web-routes.ts";
import { refuseOtherHosts } from "#server/plugins/allowed-hosts.ts";

export interface SandboxOptions {
  /** SQLite file holding users, tokens, mail and visits; ":memory:" for a throw-away sandbox. */
  dbPath: string;
  /** The portal's base URL, for the sign-in links in e-mails. */
  portalUrl: string;
  /** Milliseconds since the epoch; tests pass a fake clock to expire codes and tokens. */
  now?: () => number;
  logger?: boolean;
  /** Called with each e-mail sent; the sandbox itself never prints one (its secrets stay in the mailbox). */
  onMail?: (mail: StoredMail) => void;
  /** The port on 127.0.0.1; a free one when absent. */
  port?: number;
  /**
   * Whether the mails link the sandbox's own address for its pages (a sandbox run alone: no portal relays them);
   * else they link the portal's, which relays them.
   */
  ownPages?: boolean;
  /**
   * Tests only: passwords (the seed's first) hashed at scrypt's test cost (sandbox/passwords.ts), so a test's sandbox
   * starts and checks a sign-in's password without 50 ms of CPU per hash. The starts a person runs (launch.ts,
   * main.ts) never set it.
   */
  testPasswordCost?: boolean;
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds the sandbox app (database opened, schema created, seeded once) without listening. */
export async function buildSandbox(options: SandboxOptions): Promise<FastifyInstance> {
  return (await assemble(options)).app;
}

async function assemble(options: SandboxOptions): Promise<{ app: FastifyInstance; ctx: SandboxContext }> {
  const db = openDatabase(options.dbPath);
  const passwordCost = options.testPasswordCost === true ? TEST_COST : FULL_COST;
  try {
    await seedIfEmpty(db, passwordCost);
  } catch (error) {
    db.close();
    throw error;
  }
  const now = options.now ?? Date.now;
  const portalUrl = options.portalUrl.replace(/\/+$/, "");
  // A sandbox run alone learns its own address once it listens (startSandbox sets it); mail is sent only after that.
  const ctx: SandboxContext = {
    db,
    now,
    mailbox: createMailbox(db, now, options.onMail),
    portalUrl,
    pagesUrl: portalUrl,
    passwordCost,
  };
  const app = Fastify({ logger: options.logger ?? false });
  // It listens on loopback only: a page of another site that rebinds its own name to 127.0.0.1 reads nothing.
  refuseOtherHosts(app, { any: false, names: [] });
  app.addHook("onClose", async () => {
    db.close();
  });
  installBodyParsers(app);
  installErrorHandling(app);
  registerAuthRoutes(app, ctx);
  registerWebRoutes(app, ctx);
  registerSandboxRoutes(app, ctx);
  registerResetRoutes(app, ctx);
  return { app, ctx };
}

/** Builds the sandbox and listens on 127.0.0.1, on the port asked for or a free one. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const { app, ctx } = await assemble(options);
  try {
    await app.listen({ host: "127.0.0.1", port: options.port ?? 0 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("The sandbox is not listening on a TCP port.");
  const url = `http://127.0.0.1:${address.port}`;
  if (options.ownPages === true) ctx.pagesUrl = url;
  return {
    url,
    app,
    close: async () => {
      await app.close();
    },
  };
}
