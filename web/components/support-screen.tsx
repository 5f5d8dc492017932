// The Support (client) and Contact Us (vendor) pages: the login page's support sentence and its contacts, each a link.
import { EmailLink, PhoneLink, SupportSentence } from "#web/components/support.tsx";
import type { PageContext } from "#web/page-context.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { sectionTexts } from "#web/texts/sections.ts";

export function SupportScreen({ entry, support }: { entry: RouteEntry; support: PageContext["support"] }) {
  return (
    <article className="support-screen">
      <h1>{entry.title}</h1>
      <p>{entry.about}</p>
      <dl className="contact-list">
        <dt>{sectionTexts.phone}</dt>
        <dd>
          <PhoneLink phone={support.phone} />
        </dd>
        <dt>{sectionTexts.phoneUk}</dt>
        <dd>
          <PhoneLink phone={support.phoneUk} />
        </dd>
        <dt>{sectionTexts.email}</dt>
        <dd>
          <EmailLink email={support.email} />
        </dd>
      </dl>
      <p className="support">
        <SupportSentence support={support} />
      </p>
    </article>
  );
}
