// The one list of islands: the browser loads each as its own chunk; the server preloads them all to render.
import type { ComponentType } from "react";

export const islandLoaders = {
  login: () => import("#web/islands/login-island.tsx"),
  mfa: () => import("#web/islands/mfa-island.tsx"),
  "change-password": () => import("#web/islands/change-password-island.tsx"),
  "link-login": () => import("#web/islands/link-login-island.tsx"),
};

export type IslandName = keyof typeof islandLoaders;
export type IslandProps<N extends IslandName> = Parameters<
  Awaited<ReturnType<(typeof islandLoaders)[N]>>["default"]
>[0];

const loaded = new Map<IslandName, ComponentType<never>>();

/** Server only: import every island once at start-up so pages render synchronously. */
export async function preloadIslands(): Promise<void> {
  for (const [name, load] of Object.entries(islandLoaders)) {
    const module: { default: unknown; preload?: () => Promise<void> } = await load();
    await module.preload?.(); // the parts an island renders on the server that the browser loads later
    loaded.set(name as IslandName, module.default as ComponentType<never>);
  }
}

export function loadedIsland(name: IslandName): ComponentType<never> {
  const component = loaded.get(name);
  if (!component) throw new Error(`island ${name} was not preloaded`);
  return component;
}
