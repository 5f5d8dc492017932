// An island: server-rendered markup marked with its name, followed by its props as JSON for hydration.
import { createElement } from "react";
import { type IslandName, type IslandProps, loadedIsland } from "#web/islands/registry.ts";
import { serializeProps } from "#web/islands/serialize.ts";

export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps<N> }) {
  return (
    <>
      <div data-island={name}>{createElement(loadedIsland(name), props as never)}</div>
      <script
        type="application/json"
        data-island-props={name}
        dangerouslySetInnerHTML={{ __html: serializeProps(props) }}
      />
    </>
  );
}
