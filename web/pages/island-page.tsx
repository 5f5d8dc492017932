// A page whose content is one island in a card: the MFA route, login by link, a forced password change.
import { Frame } from "#web/components/frame.tsx";
import { Island } from "#web/components/island.tsx";
import type { IslandName, IslandProps } from "#web/islands/registry.ts";
import type { PageContext } from "#web/pages/page-context.ts";

export function IslandPage<N extends IslandName>({
  context,
  title,
  name,
  props,
}: {
  context: PageContext;
  title: string;
  name: N;
  props: IslandProps<N>;
}) {
  return (
    <Frame context={context}>
      <article className="narrow-card">
        <h1 className="visually-hidden">{title}</h1>
        <Island name={name} props={props} />
      </article>
    </Frame>
  );
}
