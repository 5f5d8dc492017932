// A page of a signed-in section: the frame, the section's navigation, and the screen the route table names.
import type { ReactElement } from "react";
import { Frame } from "#web/components/frame.tsx";
import { Island } from "#web/components/island.tsx";
import { SectionNav } from "#web/components/section-nav.tsx";
import type { PageContext } from "#web/pages/page-context.ts";
import type { RouteEntry, Section } from "#web/routes.ts";
import type { Site, UserInfo } from "#web/site.ts";
import { accessTexts } from "#web/texts/access.ts";

export type SectionScreen =
  | { kind: "entry"; entry: RouteEntry }
  | { kind: "forbidden" }
  | { kind: "not-found" }
  | { kind: "checking" };

type Props = {
  context: PageContext;
  section: Exclude<Section, "public">;
  audience: Site;
  permissions: UserInfo | undefined;
  current: string;
  screen: SectionScreen;
};

export function SectionPage({ context, section, audience, permissions, current, screen }: Props) {
  return (
    <Frame context={context} wide>
      <div className="section-layout">
        {permissions ? <SectionNav section={section} permissions={permissions} current={current} /> : null}
        <section className="screen">{screenContent(context, audience, screen)}</section>
      </div>
    </Frame>
  );
}

function screenContent(context: PageContext, audience: Site, screen: SectionScreen): ReactElement {
  const contact = <p>{accessTexts.contact(context.support.email)}</p>;
  switch (screen.kind) {
    case "forbidden":
      return (
        <article>
          <h1>{accessTexts.forbiddenHeading}</h1>
          <p>{accessTexts.forbiddenAdvice}</p>
          {contact}
        </article>
      );
    case "not-found":
      return (
        <article>
          <h1>{accessTexts.notFoundHeading}</h1>
          <p>{accessTexts.notFoundAdvice}</p>
          {contact}
        </article>
      );
    case "checking":
      return (
        <article aria-busy="true">
          <p role="status">{accessTexts.checking}</p>
        </article>
      );
    case "entry":
      return entryContent(context, audience, screen.entry);
  }
}

function entryContent(context: PageContext, audience: Site, entry: RouteEntry): ReactElement {
  switch (entry.screen) {
    case "forbidden":
      return screenContent(context, audience, { kind: "forbidden" });
    case "pdf":
      return (
        <article className="document">
          <h1>{entry.title}</h1>
          <iframe title={entry.title} src={`/pdfs/${entry.pdf}`} className="pdf-frame" />
          <p>
            <a href={`/pdfs/${entry.pdf}`} download={entry.pdf}>
              Download {entry.pdf}
            </a>
          </p>
        </article>
      );
    case "change-password":
      return (
        <article className="narrow-card">
          <Island
            name="change-password"
            props={{ audience, userName: context.user?.name || undefined, redirect: false }}
          />
        </article>
      );
    case "home":
      return (
        <article>
          <h1>{entry.title}</h1>
          <p>
            {context.user?.name ? `Welcome, ${context.user.name}. ` : "Welcome. "}
            Choose a page from the menu to work with your invoices, payments and reports.
          </p>
        </article>
      );
    default:
      return (
        <article>
          <h1>{entry.title}</h1>
          <p>{entry.about}</p>
        </article>
      );
  }
}
