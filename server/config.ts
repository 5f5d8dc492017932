// The portal's configuration: read from the environment once, validated, or the start stops naming what is wrong.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { isLoopback } from "#server/security/loopback.ts";

const hexKey = /^[0-9a-fA-F]{64}$/;
/** A yes-or-no setting: `true` or `1`, `false`, `0` or empty (in any case), or unset for its default. */
const flag = (unset: boolean) => z.stringbool({ truthy: ["true", "1"], falsy: ["false", "0", ""] }).default(unset);

const environment = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  UPSTREAM_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** The deliberate opt-in to the embedded sandbox in production (a demo); never needed in development. */
  SANDBOX: flag(false),
  SESSION_KEY: z
    .string()
    .optional()
    .refine((value) => !value || value.split(",").every((key) => hexKey.test(key.trim())), {
      message: "must be 64 hex characters, or several separated by commas",
    }),
  TAX_BRIDGE: flag(false),
  SUPPORT_PHONE: z.string().min(1).default("+1 (800) 555-0142"),
  SUPPORT_PHONE_UK: z.string().min(1).default("+44 20 7946 0958"),
  SUPPORT_EMAIL: z.email().default("support@payments-portal.example"),
  PROVIDER_NAME: z.string().min(1).default("Payments Portal"),
  SANDBOX_DB: z.string().min(1).default("data/sandbox.sqlite"),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: flag(false),
  COOKIE_SECURE: flag(true),
  // Fractions allowed (at least 6 s): a browser test of the idle limit waits seconds, not minutes.
  SESSION_IDLE_MINUTES: z.coerce.number().min(0.1).default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** A request's headers must have arrived this long after its first byte, and the whole request (body too) this. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  MAX_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  /**
   * Tests only: a stop's grace and deadlines times this (server/plugins/shutdown.ts), so a test of a stop waits a
   * fraction.
   */
  TEST_STOP_SCALE: z.coerce.number().gt(0).max(1).optional(),
  RATE_LIMIT_IP_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_USER_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  MFA_MAX_WRONG_CODES: z.coerce.number().int().min(1).default(5),
  SECURITY_LOG_DAYS: z.coerce.number().int().min(1).max(90).default(90),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  METRICS_TOKEN: z.string().min(24, "at least 24 characters (openssl rand -hex 16)").optional(),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Letters, digits and `_ . : - { }`: the prefix goes into SCAN patterns, where `*`, `?` and `[` would be globs.
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:{}-]{1,64}$/, "1 to 64 letters, digits or _ . : - { }")
    .default("portal:"),
  /** An OpenTelemetry collector's OTLP/HTTP base address; unset, no OpenTelemetry SDK or instrumentation is loaded. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL (the collector's OTLP/HTTP address, port 4318)" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  OTEL_SERVICE_NAME: z.string().min(1).default("payments-portal"),
});

/** The environment's settings, checked together, then shaped as the portal reads them. */
const schema = environment
  .superRefine((values, context) => {
    const problem = (setting: keyof typeof values, message: string) =>
      context.addIssue({ code: "custom", path: [setting], message });
    const production = values.NODE_ENV === "production";
    // The sandbox hands out anyone's sign-in link and MFA code at /sandbox/mail: never by a forgotten UPSTREAM_URL.
    if (production && !values.UPSTREAM_URL && !values.SANDBOX)
      problem(
        "UPSTREAM_URL",
        "required in production (the payments API's address); SANDBOX=true runs the embedded sandbox instead, on purpose",
      );
    // The same on an address other than this machine, whatever NODE_ENV says (a forgotten NODE_ENV is development).
    if (!production && !values.UPSTREAM_URL && !values.SANDBOX && !isLoopback(values.HOST))
      problem(
        "HOST",
        `${values.HOST} would serve the embedded sandbox (its sign-in codes and links) beyond this machine; set UPSTREAM_URL, or SANDBOX=true on purpose`,
      );
    if (values.UPSTREAM_URL && values.SANDBOX)
      problem("SANDBOX", "true starts the embedded sandbox, which UPSTREAM_URL replaces; set one of them");
    // A production stop keeps its whole grace: the orchestrator's own is set above it.
    if (production && values.TEST_STOP_SCALE !== undefined)
      problem("TEST_STOP_SCALE", "tests only; a production stop keeps its full grace");
    // Behind a proxy every request comes from it, so the Host name is the one guard against DNS rebinding.
    if (values.TRUST_PROXY && !values.PUBLIC_URL)
      problem(
        "TRUST_PROXY",
        "true needs PUBLIC_URL: behind a proxy the portal answers only for PUBLIC_URL's Host name, localhost and IP addresses",
      );
    // Node refuses a headers deadline past the whole request's.
    if (values.HEADERS_TIMEOUT_MS > values.REQUEST_TIMEOUT_MS)
      problem("HEADERS_TIMEOUT_MS", `must not be longer than REQUEST_TIMEOUT_MS (${values.REQUEST_TIMEOUT_MS})`);
    if (!values.SESSION_KEY && production) problem("SESSION_KEY", "required in production (64 hex characters)");
  })
  .transform((values) => ({
    env: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    /** Unset: the embedded sandbox is started and its address filled in. */
    upstreamUrl: values.UPSTREAM_URL?.replace(/\/+$/, ""),
    /** The first key signs; the others are still accepted (rotation). Empty outside production: a key per run. */
    sessionKeys: (values.SESSION_KEY ?? "")
      .split(",")
      .map((key) => key.trim())
      .filter(Boolean)
      .map((key) => Buffer.from(key, "hex")),
    taxBridge: values.TAX_BRIDGE,
    support: { phone: values.SUPPORT_PHONE, phoneUk: values.SUPPORT_PHONE_UK, email: values.SUPPORT_EMAIL },
    providerName: values.PROVIDER_NAME,
    sandboxDb: values.SANDBOX_DB,
    publicUrl: values.PUBLIC_URL?.replace(/\/+$/, ""),
    trustProxy: values.TRUST_PROXY,
    /** Secure, `__Host-` cookie; browsers accept it on https and on http://localhost. */
    cookieSecure: values.COOKIE_SECURE,
    session: { idleSeconds: values.SESSION_IDLE_MINUTES * 60, maxSeconds: values.SESSION_MAX_HOURS * 3600 },
    upstreamTimeoutMs: values.UPSTREAM_TIMEOUT_MS,
    /** Slow clients: the deadlines of a request's headers and of the whole request, and one address's open sockets. */
    clients: {
      headersTimeoutMs: values.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
      maxSocketsPerAddress: values.MAX_SOCKETS_PER_ADDRESS,
    },
    /** 1 but in a test of a stop: the factor of its grace and deadlines. */
    stopScale: values.TEST_STOP_SCALE ?? 1,
    rateLimits: { perIp: values.RATE_LIMIT_IP_PER_MINUTE, perUser: values.RATE_LIMIT_USER_PER_MINUTE },
    mfaMaxWrongCodes: values.MFA_MAX_WRONG_CODES,
    /** How long each person's recent security events are kept (at most 90 days). */
    securityLogDays: values.SECURITY_LOG_DAYS,
    logLevel: values.LOG_LEVEL,
    /** The bearer token Prometheus sends for /metrics; unset, /metrics is not served. */
    metricsToken: values.METRICS_TOKEN,
    /** Unset url: sessions, throttles and wrong-code counts live in memory (one replica); set, shared through Redis. */
    redis: { url: values.REDIS_URL, keyPrefix: values.REDIS_KEY_PREFIX },
    /** Unset endpoint: no tracing. Set: spans go to the collector there (OTLP over HTTP, JSON), named by the service. */
    tracing: { endpoint: values.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: values.OTEL_SERVICE_NAME },
  }));

export type Config = z.output<typeof schema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (message: string) => void = console.warn,
): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const config = parsed.data;
  if (config.sessionKeys.length === 0) {
    config.sessionKeys = [randomBytes(32)];
    warn(
      "WARNING: SESSION_KEY is not set; using a random key for this run only. Every session ends at restart. Set SESSION_KEY (64 hex characters) outside development.",
    );
  }
  return config;
}
