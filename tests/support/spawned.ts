// A program of the project started in its own process with `node --import tsx`, its output read as it comes.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { scaled } from "#tests/support/waiting.ts";

const root = new URL("../..", import.meta.url).pathname;

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Waits until the output so far matches, failing on an exit first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `node --import tsx FILE` in the project's root, with only this environment (and PATH). */
export function spawnSource(file: string, env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, ms = 20_000) {
      const deadline = Date.now() + scaled(ms);
      for (;;) {
        const found = pattern.exec(output);
        if (found) return found;
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
