// The bench's servers, each its own process so its CPU time is its own: started like production, stopped with SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

export type Server = { url: string; pid: number; process: ChildProcess; stop(): Promise<void> };

const root = new URL("../..", import.meta.url).pathname;

/** Every server this run started and has not stopped: killed when the run ends, however it ends. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    for (const child of running) child.kill("SIGKILL");
    process.exit(130);
  });

/** The compiled portal alone, in front of an upstream, as `npm start` runs it then (run `npm run build` first). */
export const PORTAL_MAIN = "dist/server/main.js";

/** A port free right now, for a server that must be told its port in the environment. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/**
 * Starts a server and waits until `readyPath` answers: compiled JavaScript (`.js`) with plain node and source maps,
 * as production runs it; TypeScript through tsx.
 */
export async function startServer(
  script: string,
  port: number,
  env: NodeJS.ProcessEnv,
  readyPath = "/",
  /** Node's own options, e.g. `--cpu-prof` to profile a server under a bench's load (NODE_OPTIONS refuses it). */
  nodeArgs: string[] = [],
): Promise<Server> {
  if (script.endsWith(".js") && !existsSync(`${root}${script}`))
    throw new Error(`${script} is missing: run \`npm run build\` first`);
  const args = [
    ...nodeArgs,
    ...(script.endsWith(".js") ? ["--enable-source-maps", script] : ["--import", "tsx", script]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before it was ready`))),
  );
  const ready = (async () => {
    for (let attempt = 0; attempt < 200 && child.exitCode === null; attempt++) {
      try {
        await fetch(`${url}${readyPath}`, { redirect: "manual" });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`${script} did not answer at ${url}`);
  })();
  exited.catch(() => {});
  ready.catch(() => {});
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
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
