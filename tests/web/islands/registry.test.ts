// The one list of islands: the server imports each once at start-up, then renders pages without waiting.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type IslandName, islandLoaders, loadedIsland, preloadIslands } from "#web/islands/registry.ts";

describe("the islands", () => {
  it("refuse to render an island that was not preloaded, then give each its own component once preloaded", async () => {
    assert.throws(() => loadedIsland("login"), /island login was not preloaded/);
    await preloadIslands();
    for (const name of Object.keys(islandLoaders) as IslandName[]) {
      assert.equal(loadedIsland(name), (await islandLoaders[name]()).default, name);
    }
  });
});
