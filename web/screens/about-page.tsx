// A public screen whose content docs/requirements.md does not show: its title and what it is for, nothing pretending to work.
import { Frame } from "#web/components/frame.tsx";
import type { PageContext } from "#web/page-context.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { pathOf } from "#web/routes/table.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";

export function AboutPage({ context, entry }: { context: PageContext; entry: Pick<RouteEntry, "title" | "about"> }) {
  return (
    <Frame context={context}>
      <article>
        <h1>{entry.title}</h1>
        <p>{entry.about}</p>
        <p>
          <a href={pathOf("public", "Sign In")}>{linkLoginTexts.signIn}</a>
        </p>
      </article>
    </Frame>
  );
}
