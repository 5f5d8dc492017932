// A page whose content is one island in a card: the MFA route, login by link, a forced password change. The island
// carries the page's visible h1 (its own heading), so the page adds none. Below it, as on the login page, the support
// line: these are steps of signing in, where a person who is stuck (a spent link, no code) needs someone to ask.
import { Frame } from "#web/components/frame.tsx";
import { SupportSentence } from "#web/components/support.tsx";
import { Island } from "#web/islands/island.tsx";
import type { IslandName, IslandProps } from "#web/islands/registry.ts";
import type { PageContext } from "#web/page-context.ts";

export function IslandPage<N extends IslandName>({
  context,
  name,
  props,
}: {
  context: PageContext;
  /** The document's title (the server sets it); the island's heading is the page's h1. */
  title: string;
  name: N;
  props: IslandProps<N>;
}) {
  return (
    <Frame context={context}>
      <article className="narrow-card">
        <Island name={name} props={props} />
        <p className="support">
          <SupportSentence support={context.support} />
        </p>
      </article>
    </Frame>
  );
}
