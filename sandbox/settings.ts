// The settings of the sandbox started alone (`npm run sandbox`), read from its environment.
import { z } from "zod";

const environment = z.object({
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  SANDBOX_DB: z.string().min(1).default("data/sandbox.sqlite"),
  /** The portal's address, for the links in the sandbox's mails. */
  PORTAL_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
});

export interface SandboxSettings {
  port: number;
  dbPath: string;
  portalUrl: string;
}

/** The sandbox's settings, or an error naming the one that is wrong. */
export function sandboxSettings(env: NodeJS.ProcessEnv): SandboxSettings {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new Error(`${issue?.path.join(".")}: ${issue?.message}`);
  }
  return { port: parsed.data.SANDBOX_PORT, dbPath: parsed.data.SANDBOX_DB, portalUrl: parsed.data.PORTAL_URL };
}
