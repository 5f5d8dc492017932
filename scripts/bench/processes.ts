// The bench's servers, each its own process so its CPU time is its own: started like production, stopped with SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

export type Server = { url: string; pid: number; process: ChildProcess; stop(): Promise<void> };

const root = new URL("../..", import.meta.url).pathname;

/** A port free right now, for a server that must be told its port in the environment. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** Starts `node --import tsx <script>` and waits until `readyPath` answers. */
export async function startServer(
  script: string,
  port: number,
  env: NodeJS.ProcessEnv,
  readyPath = "/",
): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before it was ready`))),
  );
  const ready = (async () => {
    for (let attempt = 0; attempt < 200; attempt++) {
      try {
        await fetch(`${url}${readyPath}`, { redirect: "manual" });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`${script} did not answer at ${url}`);
  })();
  await Promise.race([ready, exited]);
  exited.catch(() => {});
  return {
    url,
    pid: child.pid as number,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** The CPU time (user + system, all threads) a process has used so far, in µs, read from /proc. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which sits in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** Resident memory of a process, in bytes, read from /proc. */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kib) throw new Error(`no VmRSS for ${pid}`);
  return Number(kib) * 1024;
}
