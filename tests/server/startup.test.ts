// What the start says to a person: one plain line they can act on when the port cannot be had, and readable
// development logs, one line per request.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { developmentLogger, listenFailure } from "#server/startup.ts";

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe("a failed listen", () => {
  it("says what to change, for a port in use, a privileged port and an address not of this machine", () => {
    assert.equal(
      listenFailure(failure("EADDRINUSE"), "127.0.0.1", 3000),
      "Port 3000 is in use; set PORT to another port.",
    );
    assert.equal(
      listenFailure(failure("EACCES"), "0.0.0.0", 80),
      "Port 80 needs privileges this user does not have; set PORT to a port above 1023.",
    );
    assert.equal(
      listenFailure(failure("EADDRNOTAVAIL"), "10.9.9.9", 3000),
      "10.9.9.9 is not an address of this machine; set HOST to one that is (127.0.0.1, or 0.0.0.0 for all).",
    );
  });

  it("has no plain reading for any other failure, which then keeps its own error", () => {
    for (const error of [failure("EMFILE"), new Error("boom"), "text", null, undefined, { code: 42 }])
      assert.equal(listenFailure(error, "127.0.0.1", 3000), undefined);
  });
});

describe("the development logs", () => {
  it("are given to the logger as pino-pretty's stream at the asked level", async () => {
    const logger = await developmentLogger("debug");
    assert.ok(logger && typeof logger === "object", "logger options");
    const options = logger as { level?: string; stream?: { write?: unknown } };
    assert.equal(options.level, "debug");
    assert.equal(typeof options.stream?.write, "function", "a stream pretty-prints the lines");
  });
});
