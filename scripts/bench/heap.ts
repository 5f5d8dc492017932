// The heap options the container runs the portal with: the Dockerfile's NODE_OPTIONS, the one place they are set
// (deploy/k8s sets the same, tests/deploy/k8s.test.ts checks). The memory rows run under them; row 7e sets them beside
// Node's defaults on the same requests.
import { readFileSync } from "node:fs";

const dockerfile = readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8");

export function containerNodeOptions(): string {
  const options = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile)?.[1];
  if (options === undefined) throw new Error("the Dockerfile sets no NODE_OPTIONS");
  return options;
}
