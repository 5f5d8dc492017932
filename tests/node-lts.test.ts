// scripts/node-lts.sh on a machine without a Node that fits: it brings exactly the pinned version, checks its binary's
// SHA-256 and the cache's owner before every run, and refuses a cache that fails either in one line. Run on a copy of
// the script with a pins file of its own, a fake npm and a fake binary: nothing is downloaded.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

const script = new URL("../scripts/node-lts.sh", import.meta.url).pathname;
const platform = `${process.platform}-${process.arch}`;
const fakeNode = '#!/bin/sh\necho "the pinned node ran: $*"\n';
/** The tools the script uses, and no node: the machine's Node is taken as too old. */
const tools = [
  "bash",
  "uname",
  "tr",
  "sed",
  "grep",
  "dirname",
  "id",
  "cut",
  "mkdir",
  "sha256sum",
  "shasum",
  "sh",
  "cp",
  "find",
  "mktemp",
  "mv",
  "rm",
];

/** A copy of the script pinned to a fake binary, a PATH without node and with a fake npm, and an empty cache. */
function machine(registryServes = fakeNode) {
  const root = mkdtempSync(join(tmpdir(), "node-lts-"));
  const scripts = join(root, "scripts");
  const bin = join(root, "bin");
  mkdirSync(scripts);
  mkdirSync(bin);
  copyFileSync(script, join(scripts, "node-lts.sh"));
  const sum = createHash("sha256").update(fakeNode).digest("hex");
  writeFileSync(join(scripts, "node-lts.pins"), `# pins\n24.99.0 ${platform} node-fake ${sum}\n`);
  for (const tool of tools) {
    const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
    if (found) symlinkSync(found, join(bin, tool));
  }
  writeFileSync(join(root, "served-node"), registryServes, { mode: 0o755 });
  // The registry: installs what it serves as the package's bin/node under --prefix, and notes what it was asked.
  writeFileSync(
    join(bin, "npm"),
    `#!/bin/sh\necho "$*" >>"${root}/npm-calls"\n` +
      `if [ -e "${root}/registry-down" ]; then printf 'npm error code ECONNREFUSED\\nnpm error stack...\\n' >&2; exit 1; fi\n` +
      `while [ "$1" != --prefix ]; do shift; done\n` +
      `mkdir -p "$2/node_modules/node-fake/bin" && cp "${root}/served-node" "$2/node_modules/node-fake/bin/node"\n`,
  );
  chmodSync(join(bin, "npm"), 0o755);
  const cache = join(root, "cache");
  const runtime = join(cache, "payments-portal", "node-24.99.0");
  const run = () => {
    const ran = spawnSync(join(bin, "bash"), [join(scripts, "node-lts.sh"), "node", "hello"], {
      env: { PATH: bin, HOME: root, XDG_CACHE_HOME: cache },
      encoding: "utf8",
    });
    return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
  };
  const npmCalls = () => {
    try {
      return readFileSync(join(root, "npm-calls"), "utf8");
    } catch {
      return "";
    }
  };
  return { root, cache, runtime, binary: join(runtime, "node_modules/node-fake/bin/node"), run, npmCalls };
}

describe("scripts/node-lts.sh, when the machine's Node cannot run the portal", () => {
  it("brings exactly the pinned version once, checks it, and runs on it", (t) => {
    const box = machine();
    t.after(() => rmSync(box.root, { recursive: true, force: true }));
    const first = box.run();
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, "the pinned node ran: hello\n");
    assert.match(
      first.stderr,
      /^node-lts: this machine's Node \(none\) cannot run the portal; bringing Node 24\.99\.0 /,
    );
    assert.equal(first.stderr.split("\n").filter(Boolean).length, 1, "one line");
    assert.match(box.npmCalls(), /--ignore-scripts .* node-fake@24\.99\.0$/m, "the exact version, no install script");
    const again = box.run();
    assert.equal(again.stdout, "the pinned node ran: hello\n");
    assert.match(again.stderr, /^node-lts: .*; running on Node 24\.99\.0 from .*node-24\.99\.0\n$/);
    assert.equal(box.npmCalls().split("\n").filter(Boolean).length, 1, "installed once");
  });

  it("refuses in one line, and runs nothing, a cache whose binary was changed", (t) => {
    const box = machine();
    t.after(() => rmSync(box.root, { recursive: true, force: true }));
    assert.equal(box.run().status, 0);
    appendFileSync(box.binary, "echo changed\n");
    const refused = box.run();
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, "", "the changed binary never ran");
    assert.match(
      refused.stderr,
      /^node-lts: .*node-fake\/bin\/node is not the pinned Node 24\.99\.0 \(SHA-256 differs\): refused/,
    );
    assert.equal(refused.stderr.split("\n").filter(Boolean).length, 1, "one line");
  });

  it("refuses a binary the registry served that is not the pinned one, before its first run", (t) => {
    const box = machine("#!/bin/sh\necho 'another node'\n");
    t.after(() => rmSync(box.root, { recursive: true, force: true }));
    const refused = box.run();
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /\n?node-lts: .* is not the pinned Node 24\.99\.0 \(SHA-256 differs\): refused/);
  });

  it("refuses in one line a cache with a folder another user may write, where the binary could be swapped", (t) => {
    const box = machine();
    t.after(() => rmSync(box.root, { recursive: true, force: true }));
    assert.equal(box.run().status, 0);
    chmodSync(join(box.runtime, "node_modules/node-fake/bin"), 0o777);
    const refused = box.run();
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /^node-lts: .*node-fake\/bin is not owned by \S+ alone: refused/);
    assert.equal(refused.stderr.split("\n").filter(Boolean).length, 1, "one line");
  });

  it("says in one line that the registry could not be reached, and leaves no cache that would refuse the next run", (t) => {
    const box = machine();
    t.after(() => rmSync(box.root, { recursive: true, force: true }));
    writeFileSync(join(box.root, "registry-down"), "");
    const failed = box.run();
    assert.equal(failed.status, 1);
    assert.equal(failed.stdout, "");
    const [, line, ...more] = failed.stderr.split("\n").filter(Boolean);
    assert.match(
      line ?? "",
      /^node-lts: could not bring node-fake@24\.99\.0 from the npm registry: npm error code ECONNREFUSED$/,
    );
    assert.deepEqual(more, [], "one line after the one that says what it brings");
    assert.deepEqual(readdirSync(join(box.cache, "payments-portal")), [], "nothing left in the cache");
    rmSync(join(box.root, "registry-down"));
    const again = box.run();
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout, "the pinned node ran: hello\n");
  });

  it("refuses in one line a cache folder the user running it does not own", (t) => {
    const box = machine();
    t.after(() => rmSync(box.root, { recursive: true, force: true }));
    mkdirSync(join(box.cache, "payments-portal"), { recursive: true });
    // Root owns everything it makes: the folder is given away; anyone else finds it another user's (the root folder).
    if (process.getuid?.() === 0) {
      mkdirSync(box.runtime);
      chownSync(box.runtime, 65534, 65534);
    } else symlinkSync("/", box.runtime);
    const refused = box.run();
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /^node-lts: .*node-24\.99\.0 is not owned by \S+ alone: refused/);
    assert.equal(refused.stderr.split("\n").filter(Boolean).length, 1, "one line");
    assert.equal(box.npmCalls(), "", "nothing installed into it");
  });

  it("is the Node the container runs: the Dockerfile's images are the pinned Node 24", () => {
    const pins = readFileSync(new URL("../scripts/node-lts.pins", import.meta.url), "utf8");
    const pinned = /^(24\.\d+\.\d+) /m.exec(pins)?.[1];
    assert.ok(pinned, "a Node 24 is pinned");
    const dockerfile = readFileSync(new URL("../Dockerfile", import.meta.url), "utf8");
    const images = [...dockerfile.matchAll(/^FROM (node:\S+)/gm)].map((match) => match[1]);
    assert.deepEqual([...new Set(images)], [`node:${pinned}-bookworm-slim`]);
  });
});
