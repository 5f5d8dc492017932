// The one hydration entry: wakes each island on the page from its own chunk, with its serialized props.
import { createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { type IslandName, islandLoaders } from "#web/islands/registry.ts";

for (const element of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const name = element.dataset.island as IslandName;
  const load = islandLoaders[name];
  const propsElement = element.nextElementSibling;
  if (!load || !(propsElement instanceof HTMLScriptElement)) continue;
  const props: unknown = JSON.parse(propsElement.textContent || "{}");
  load().then(({ default: component }) => {
    hydrateRoot(element, createElement(component as never, props as never));
  });
}
