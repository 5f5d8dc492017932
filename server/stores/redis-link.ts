// The shared stores' two Redis connections: bounded timeouts, reconnect with backoff, up and down logged once each.
import type { FastifyBaseLogger } from "fastify";
import { Redis, type RedisOptions } from "ioredis";
import { defineScripts } from "#server/stores/redis-scripts.ts";

export type StoreLog = Pick<FastifyBaseLogger, "info" | "warn">;

export type LinkOptions = {
  url: string;
  log: StoreLog;
  /** The pub/sub channel the link subscribes to on every (re)connect. */
  channel: string;
  /** Called on every change between up and down, for a gauge such as `portal_redis_up`. */
  onState?: (up: boolean) => void;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
};

/** Time to open a connection, and to answer one command: past them, the stores count in memory. */
export const CONNECT_TIMEOUT_MS = 1_000;
export const COMMAND_TIMEOUT_MS = 500;
/** While Redis answers too slowly, one PING this often tells when it is back. */
const PROBE_MS = 1_000;

/** Reconnects forever: 100 ms, 200 ms, … up to 2 s between tries. */
export const backoff = (times: number): number => Math.min(times * 100, 2_000);

/** The address without its password, for logs. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}

/**
 * Up when the command connection is ready, the subscriber is subscribed and the last command did not fail.
 * A failed or late command marks it down at once; a PING each second brings it back.
 */
export class RedisLink {
  readonly commands: Redis;
  readonly subscriber: Redis;
  readonly #options: LinkOptions;
  #subscribed = false;
  #failing = false;
  /** Why the link went down last, for the one line logged then. */
  #reason = "";
  #up: boolean | undefined;
  #probe: NodeJS.Timeout | undefined;
  #closed = false;
  #upListeners: Array<() => void> = [];
  #messageListeners: Array<(message: string) => void> = [];

  constructor(options: LinkOptions) {
    this.#options = options;
    const common: RedisOptions = {
      connectTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      // Nothing waits for a connection: a command while disconnected fails at once and the store falls back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: backoff,
      autoResubscribe: false,
      // A connection error fails its commands and the link reconnects; ioredis would otherwise re-send them.
      autoResendUnfulfilledCommands: false,
    };
    this.commands = new Redis(options.url, { ...common, connectionName: "portal-stores" });
    this.subscriber = new Redis(options.url, { ...common, connectionName: "portal-revocations" });
    defineScripts(this.commands);
    for (const client of [this.commands, this.subscriber]) {
      // Each failed reconnect emits an error; the transition, not each error, is what gets logged.
      client.on("error", (error: unknown) => {
        this.#reason = errorText(error);
      });
      client.on("close", () => this.#update());
    }
    this.commands.on("ready", () => {
      this.#failing = false;
      this.#update();
    });
    this.subscriber.on("close", () => {
      this.#subscribed = false;
      this.#update();
    });
    this.subscriber.on("ready", () => this.#subscribe());
    this.subscriber.on("message", (_channel: string, message: string) => {
      for (const listener of this.#messageListeners) listener(message);
    });
  }

  /** True while commands may be sent: connected, and not failing. */
  get usable(): boolean {
    return !this.#closed && this.commands.status === "ready" && !this.#failing;
  }

  get up(): boolean {
    return this.#up === true;
  }

  /** Each time the link comes up (the first time, and after every outage): what was missed can be caught up. */
  onUp(listener: () => void): void {
    this.#upListeners.push(listener);
  }

  onMessage(listener: (message: string) => void): void {
    this.#messageListeners.push(listener);
  }

  /** A command failed (timed out, connection lost): the stores count in memory until a PING answers in time. */
  failed(error: unknown): void {
    if (this.#closed) return;
    this.#reason = errorText(error);
    this.#failing = true;
    this.#update();
    this.#probe ??= setInterval(() => void this.#ping(), PROBE_MS).unref();
  }

  async ping(): Promise<boolean> {
    if (this.#closed || this.commands.status !== "ready") return false;
    try {
      return (await this.commands.ping()) === "PONG";
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#probe);
    this.commands.disconnect();
    this.subscriber.disconnect();
  }

  async #ping(): Promise<void> {
    if (!(await this.ping())) return;
    this.#failing = false;
    clearInterval(this.#probe);
    this.#probe = undefined;
    this.#update();
  }

  async #subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.#options.channel);
      this.#subscribed = true;
    } catch (error) {
      // The subscriber reconnects on its own; a subscribe that timed out is tried again on its next ready.
      this.#options.log.warn({ event: "redis-error", err: errorText(error) }, "redis subscribe failed");
      this.subscriber.disconnect(true);
    }
    this.#update();
  }

  #update(): void {
    if (this.#closed) return;
    const up = this.commands.status === "ready" && this.#subscribed && !this.#failing;
    if (up === this.#up) return;
    // At start, down is only said once a connection has failed, not while both are still connecting.
    if (!up && this.#up === undefined && !this.#failing && [this.commands, this.subscriber].every(starting)) return;
    this.#up = up;
    const redis = redactUrl(this.#options.url);
    if (up) this.#options.log.info({ event: "redis-up", redis }, "redis reachable: security state is shared");
    else
      this.#options.log.warn(
        { event: "redis-down", redis, err: this.#reason },
        "redis unreachable: revocations answered from this replica, counts kept in it until redis returns",
      );
    this.#options.onState?.(up);
    if (up) for (const listener of this.#upListeners) listener();
  }
}

const starting = (client: Redis): boolean => ["wait", "connecting", "connect", "ready"].includes(client.status);

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
