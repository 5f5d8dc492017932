// The shared stores' two Redis connections: bounded timeouts, reconnect with backoff; an outage logged when it starts
// and when it ends, however often the link drops within it, and however soon after the last one it starts.
import type { FastifyBaseLogger } from "fastify";
import { type ChainableCommander, Redis, type RedisOptions } from "ioredis";
import { FailureRun } from "#server/plugins/logging.ts";
import { defineScripts } from "#server/stores/redis-scripts.ts";

export type StoreLog = Pick<FastifyBaseLogger, "info" | "warn">;

export type LinkOptions = {
  url: string;
  log: StoreLog;
  /** The app's clock (the tests' fake one): every store on the link reads it. */
  now: () => number;
  /** The pub/sub channel the link subscribes to on every (re)connect. */
  channel: string;
  /** Called on every change between up and down, for a gauge such as `portal_redis_up`. */
  onState?: (up: boolean) => void;
  /** Called for each write Redis refused at its maxmemory, for a counter such as `portal_redis_refused_writes_total`. */
  onRefused?: () => void;
  /** Bounds on Redis: CONNECT_TIMEOUT_MS to connect and COMMAND_TIMEOUT_MS per command unless given. */
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** The wait before each reconnect attempt: `backoff` unless given (tests shorten it and count the attempts). */
  retryStrategy?: (times: number) => number;
  /** STEADY_MS and LASTING_MS unless given (tests shorten them). */
  steadyMs?: number;
  lastingMs?: number;
};

/** Time to open a connection, and to answer one command: past them, the stores count in memory. */
export const CONNECT_TIMEOUT_MS = 1_000;
export const COMMAND_TIMEOUT_MS = 500;
/** While Redis answers too slowly, one PING this often tells when it is back. */
const PROBE_MS = 1_000;
/**
 * Back up after an outage, drops within this long belong to the same outage (a flapping Redis): counted, and said
 * once it has stayed up this long.
 */
export const STEADY_MS = 60_000;
/** A drop within STEADY_MS of a recovery that lasts this long is said as an outage (and its end) all the same. */
export const LASTING_MS = 5_000;

/**
 * Redis refused a write for its maxmemory: the link is up, only that write is kept in the replica. A transaction
 * (MULTI) Redis refused at its maxmemory ends in EXECABORT: refused in the same way, never an outage.
 */
export const outOfMemory = (error: unknown): boolean => /^(OOM|EXECABORT)\b/.test(errorText(error));

/** Reconnects forever: 100 ms, 200 ms, … up to 2 s between tries. */
export const backoff = (times: number): number => Math.min(times * 100, 2_000);

/**
 * Sends a pipeline and gives each command's answer; throws its first command's error (one timed out, say), or when the
 * pipeline was aborted: a load never takes a batch with holes for a whole one.
 */
export async function runPipeline(pipeline: ChainableCommander): Promise<unknown[]> {
  const results = await pipeline.exec();
  const failure = results?.find(([error]) => error)?.[0];
  if (!results || failure) throw failure ?? new Error("pipeline aborted");
  return results.map(([, answer]) => answer);
}

/** A value Redis gave back, read as JSON: undefined when it is none (its shape is the reader's to check). */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The Redis server's run id: another one than last time means it restarted, maybe empty. */
export async function runIdOf(link: RedisLink): Promise<string> {
  const info = await link.commands.info("server");
  return /^run_id:(\w+)/m.exec(info)?.[1] ?? "";
}

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
  readonly now: () => number;
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
  /**
   * The outage going on (down, or up again but not yet for STEADY_MS): how many times the link dropped in it, and
   * whether its last "down" line still waits for its "up" line.
   */
  #outage: { drops: number; saidDown: boolean } | undefined;
  #steady: NodeJS.Timeout | undefined;
  /** A drop inside the steady window: said once it lasts LASTING_MS. */
  #lasting: NodeJS.Timeout | undefined;
  /** Writes Redis refused for its maxmemory since the last one it took. */
  readonly #full: FailureRun;
  #lastRefused = 0;

  constructor(options: LinkOptions) {
    this.#options = options;
    this.now = options.now;
    this.#full = new FailureRun(
      options.log,
      "redis refuses writes (maxmemory): throttle counts and locks are kept in each replica until it takes them again; session records and endings are still written",
      "redis takes writes again",
    );
    const common: RedisOptions = {
      connectTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      // Nothing waits for a connection: a command while disconnected fails at once and the store falls back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: options.retryStrategy ?? backoff,
      autoResubscribe: false,
      // A connection error fails its commands and the link reconnects; ioredis would otherwise re-send them.
      autoResendUnfulfilledCommands: false,
    };
    this.commands = new Redis(options.url, { ...common, connectionName: "portal-stores" });
    this.subscriber = new Redis(options.url, { ...common, connectionName: "portal-ledger" });
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

  /**
   * Each time the link comes up (the first time, and after every outage): what was missed can be caught up. Never
   * called back at once, so a listener added in a constructor runs only once its object is whole.
   */
  onUp(listener: () => void): void {
    this.#upListeners.push(listener);
  }

  /** What is announced on the link's channel, its only one. */
  onMessage(listener: (message: string) => void): void {
    this.#messageListeners.push(listener);
  }

  /** `task`'s answer while the link is usable; else, or when it fails (told to the link), `otherwise`'s. */
  async either<T>(task: (redis: Redis) => Promise<T>, otherwise: () => T | Promise<T>): Promise<T> {
    if (this.usable)
      try {
        return await task(this.commands);
      } catch (error) {
        this.failed(error);
      }
    return otherwise();
  }

  /**
   * A command failed (timed out, connection lost): the stores count in memory until a PING answers in time. A write
   * refused for Redis's maxmemory leaves the link up: only that write is kept in the replica.
   */
  failed(error: unknown): void {
    if (this.#closed) return;
    if (outOfMemory(error)) {
      this.#full.failed({ event: "redis-full", redis: redactUrl(this.#options.url), err: errorText(error) });
      this.#lastRefused = this.now();
      this.#options.onRefused?.();
      return;
    }
    this.#reason = errorText(error);
    this.#failing = true;
    this.#update();
    this.#probe ??= setInterval(() => void this.#ping(), PROBE_MS).unref();
  }

  /**
   * A write Redis took: a run of refused ones ends, once none was refused for STEADY_MS (at its maxmemory, Redis
   * takes one write and refuses the next as keys expire).
   */
  wrote(): void {
    if (this.#full.count > 0 && this.now() - this.#lastRefused >= STEADY_MS) this.#full.succeeded();
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
    clearTimeout(this.#steady);
    clearTimeout(this.#lasting);
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

  /**
   * One line when an outage starts and one when the link is back. A drop before it was back for STEADY_MS joins that
   * outage (counted, said once steady), unless it lasts LASTING_MS: then it is said, with the drops so far, and so is
   * its end. Every outage that lasts gets its two lines, however soon after another it starts.
   */
  #say(up: boolean): void {
    const redis = redactUrl(this.#options.url);
    const log = this.#options.log;
    const down = (outage: { drops: number; saidDown: boolean }) => {
      outage.saidDown = true;
      log.warn(
        { event: "redis-down", redis, err: this.#reason, drops: outage.drops },
        "redis unreachable: sessions answered from this replica's copies, writes and counts kept in it until redis returns",
      );
    };
    if (!up) {
      const outage = this.#outage;
      if (outage && this.#steady) {
        clearTimeout(this.#steady);
        this.#steady = undefined;
        outage.drops++;
        this.#lasting = setTimeout(() => {
          this.#lasting = undefined;
          if (this.#up === false && this.#outage === outage && !outage.saidDown) down(outage);
        }, this.#options.lastingMs ?? LASTING_MS).unref();
        return;
      }
      this.#outage = { drops: 1, saidDown: false };
      down(this.#outage);
      return;
    }
    clearTimeout(this.#lasting);
    this.#lasting = undefined;
    const outage = this.#outage;
    if (!outage || outage.saidDown) log.info({ event: "redis-up", redis }, "redis reachable: security state is shared");
    if (!outage) return;
    outage.saidDown = false;
    this.#steady = setTimeout(() => {
      this.#steady = undefined;
      this.#outage = undefined;
      if (outage.drops > 1)
        log.info({ event: "redis-steady", redis, drops: outage.drops }, "redis reachable and steady again");
    }, this.#options.steadyMs ?? STEADY_MS).unref();
  }

  #update(): void {
    if (this.#closed) return;
    const up = this.commands.status === "ready" && this.#subscribed && !this.#failing;
    if (up === this.#up) return;
    // At start, down is only said once a connection has failed, not while both are still connecting.
    if (!up && this.#up === undefined && !this.#failing && [this.commands, this.subscriber].every(starting)) return;
    this.#up = up;
    this.#say(up);
    this.#options.onState?.(up);
    if (up) for (const listener of this.#upListeners) listener();
  }
}

const starting = (client: Redis): boolean => ["wait", "connecting", "connect", "ready"].includes(client.status);

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
