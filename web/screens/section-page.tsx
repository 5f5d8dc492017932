// A page of a signed-in section: the frame, the section's navigation, and the screen the route table names.
import type { ReactElement } from "react";
import { EmptyScreen } from "#web/components/empty-screen.tsx";
import { CONTENT_ID, Frame } from "#web/components/frame.tsx";
import { HomeScreen } from "#web/components/home-screen.tsx";
import { PdfScreen } from "#web/components/pdf-screen.tsx";
import { SectionNav } from "#web/components/section-nav.tsx";
import { EmailLink, WithContacts } from "#web/components/support.tsx";
import { SupportScreen } from "#web/components/support-screen.tsx";
import { ACTIVITY_SECTION_ID, DEVICES_SECTION_ID, SESSIONS_SECTION_ID } from "#web/components/use-account-sections.ts";
import { Island } from "#web/islands/island.tsx";
import type { PageContext } from "#web/page-context.ts";
import type { FormNote } from "#web/protocol/form-answer.ts";
import type { RouteEntry, SignedInSection } from "#web/routes/row.ts";
import { canonicalPath, pathOf } from "#web/routes/table.ts";
import type { Site, UserInfo } from "#web/site.ts";
import { accessTexts } from "#web/texts/access.ts";
import { accountTexts } from "#web/texts/account.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { sectionTexts } from "#web/texts/sections.ts";

/** The security page's parts, each by its section's id and heading. */
const securityParts = [
  [SESSIONS_SECTION_ID, accountTexts.sessionsHeading],
  [DEVICES_SECTION_ID, accountTexts.devicesHeading],
  [ACTIVITY_SECTION_ID, accountTexts.activityHeading],
] as const;

export type SectionScreen =
  /** A row's screen, with what its loader drew (server/loaders/loaders.tsx), which the screen places. */
  | { kind: "entry"; entry: RouteEntry; loaded?: ReactElement }
  | { kind: "forbidden" }
  | { kind: "not-found" }
  | { kind: "checking" }
  /** The permissions a gated page needs could not be had, after the checking page asked again: `again` retries. */
  | { kind: "unchecked"; said: string; outage: boolean; again: string };

type Props = {
  context: PageContext;
  section: SignedInSection;
  audience: Site;
  /** Unset while they are not known (the checking state) or when the section is not this user's: no navigation. */
  permissions: UserInfo | undefined;
  screen: SectionScreen;
  /** The change-password form posted before its script arrived, sent back with these notes. */
  formNotes?: FormNote[] | undefined;
};

export function SectionPage({ context, section, audience, permissions, screen, formNotes }: Props) {
  const current = screen.kind === "entry" ? canonicalPath(screen.entry) : undefined;
  return (
    // The skip link leads to the screen, past the navigation: the next Tab reaches the screen's first control.
    <Frame context={context} wide contentMarked>
      <div className={permissions ? "section-layout" : "section-layout without-nav"}>
        {permissions ? <SectionNav section={section} permissions={permissions} current={current} /> : null}
        <section className="screen" id={CONTENT_ID}>
          {screenContent(context, audience, screen, section, permissions, formNotes)}
        </section>
      </div>
    </Frame>
  );
}

function screenContent(
  context: PageContext,
  audience: Site,
  screen: SectionScreen,
  section: SignedInSection,
  permissions: UserInfo | undefined,
  formNotes?: FormNote[],
): ReactElement {
  switch (screen.kind) {
    case "forbidden":
      return (
        <AccessNote heading={accessTexts.forbiddenHeading} advice={accessTexts.forbiddenAdvice} context={context} />
      );
    case "not-found":
      return <AccessNote heading={accessTexts.notFoundHeading} advice={accessTexts.notFoundAdvice} context={context} />;
    case "checking":
      return (
        <article aria-busy="true">
          <p role="status">{accessTexts.checking}</p>
        </article>
      );
    case "unchecked":
      return (
        <article className="access-note">
          <h1>{screen.said}</h1>
          <p role="alert">
            {accessTexts.unchecked}
            {screen.outage ? ` ${errorTexts.outage}` : ""}
          </p>
          <p>
            <a href={screen.again}>{accessTexts.tryAgain}</a>
          </p>
          {context.user ? (
            <p>
              <a href={pathOf(context.user.site, "Home")}>{sectionTexts.backHome}</a>
            </p>
          ) : null}
        </article>
      );
    case "entry":
      return entryContent(context, audience, screen.entry, section, permissions, screen.loaded, formNotes);
  }
}

/**
 * requirements 2.12: the forbidden and not-found pages, with the configured contact e-mail, and a way back to the person's
 * own home (in another audience's section there is no menu to go by).
 */
function AccessNote({ heading, advice, context }: { heading: string; advice: string; context: PageContext }) {
  const { user } = context;
  return (
    <article className="access-note">
      <h1>{heading}</h1>
      <p>{advice}</p>
      <p>
        <WithContacts
          words={[accessTexts.contactWords]}
          contacts={[<EmailLink key="email" email={context.support.email} />]}
        />
      </p>
      {user ? (
        <p>
          <a href={pathOf(user.site, "Home")}>{sectionTexts.backHome}</a>
        </p>
      ) : null}
    </article>
  );
}

/**
 * A row's screen by its kind, with what its loader drew: the home holds it under its welcome, a screen whose content
 * docs/requirements.md does not show in place of its "from the provider" note, every other kind below its own content.
 */
function entryContent(
  context: PageContext,
  audience: Site,
  entry: RouteEntry,
  section: SignedInSection,
  permissions: UserInfo | undefined,
  loaded?: ReactElement,
  formNotes?: FormNote[],
): ReactElement {
  switch (entry.screen) {
    case "forbidden":
      return screenContent(context, audience, { kind: "forbidden" }, section, permissions);
    case "pdf":
      return (
        <>
          <PdfScreen entry={entry} />
          {loaded}
        </>
      );
    case "support":
      return (
        <>
          <SupportScreen entry={entry} support={context.support} />
          {loaded}
        </>
      );
    case "change-password":
      // The person's security page (issue 41): headed by what it holds, the form one of its parts under its own h2,
      // beside the lists' parts. On paper the form is left out, its heading with it.
      return (
        <>
          <h1>{accountTexts.pageHeading}</h1>
          <p>{accountTexts.pageAbout}</p>
          {/* The form comes first (the route is requirements 2.5's); the lists are a tap away, not below the fold. */}
          {loaded ? (
            <nav className="page-parts" aria-label={accountTexts.pageParts}>
              <ul>
                {securityParts.map(([id, text]) => (
                  <li key={id}>
                    <a href={`#${id}`}>{text}</a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <article className="form-screen account-form" aria-labelledby="change-password-heading">
            <Island
              name="change-password"
              props={{
                audience,
                userName: context.user?.name || undefined,
                redirect: false,
                headingLevel: 2,
                ...(formNotes ? { notes: formNotes } : {}),
              }}
            />
          </article>
          {loaded}
        </>
      );
    case "home":
      return permissions ? (
        <HomeScreen context={context} section={section} entry={entry} permissions={permissions} loaded={loaded} />
      ) : (
        <article>
          <h1>{entry.title}</h1>
        </article>
      );
    default:
      return (
        <EmptyScreen section={section} entry={entry} permissions={permissions}>
          {loaded}
        </EmptyScreen>
      );
  }
}
