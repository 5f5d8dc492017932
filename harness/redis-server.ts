// A real redis-server on a free port, without persistence: started, stopped, restarted, frozen. The tests and the
// benchmarks both start theirs with it.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createConnection, createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** True when a PING on the port answers PONG. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

export class RedisServer {
  #child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly extraArgs: string[],
  ) {}

  /**
   * Starts Debian's redis-server (scripts/ensure-packages.sh installs it) on a free port; `extraArgs` are its own
   * options (`["--maxmemory", "4mb"]`), kept for every restart.
   */
  static async start(extraArgs: string[] = []): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), extraArgs);
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it again on the same port, empty: nothing is saved. */
  async restart(): Promise<void> {
    if (this.#child) throw new Error("redis-server is running");
    const args = [
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      ...this.extraArgs,
    ];
    const child = spawn("redis-server", args, { stdio: "ignore" });
    let failure: Error | undefined;
    child.on("error", (error) => {
      failure = error;
    });
    running.add(child);
    this.#child = child;
    const deadline = Date.now() + 10_000;
    while (!(await answers(this.port))) {
      if (failure)
        throw new Error(`redis-server could not start (bash scripts/ensure-packages.sh): ${failure.message}`);
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server did not start on ${this.port}`);
      await delay(50);
    }
  }

  /** Stops the process; clients see their connections close. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    running.delete(child);
    if (child.exitCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  }

  /** `CONFIG SET name value` on the running server (`maxmemory`, say), over a connection of its own. */
  async config(name: string, value: string): Promise<void> {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = createConnection({ port: this.port, host: "127.0.0.1" });
      socket.on("error", reject);
      socket.on("connect", () => socket.write(`CONFIG SET ${name} ${value}\r\n`));
      socket.on("data", (data) => {
        socket.destroy();
        resolve(data.toString());
      });
    });
    if (!answer.startsWith("+OK")) throw new Error(`CONFIG SET ${name}: ${answer.trim()}`);
  }

  /** A hung Redis: connections stay open, nothing answers (SIGSTOP), until `thaw`. */
  freeze(): void {
    this.#child?.kill("SIGSTOP");
  }

  thaw(): void {
    this.#child?.kill("SIGCONT");
  }
}
