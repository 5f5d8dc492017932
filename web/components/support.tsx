// The support contacts as links: phone numbers as tel: links that never break inside, the address as a mailto: link.
import { Fragment, type ReactNode } from "react";
import { loginTexts } from "#web/texts/login-screen.ts";

/** A tel: address keeps the digits and a leading +, so "+1 (800) 555-0100" dials as +18005550100. */
export const telHref = (phone: string): string =>
  `tel:${phone.trim().startsWith("+") ? "+" : ""}${phone.replace(/\D/g, "")}`;

export const PhoneLink = ({ phone }: { phone: string }) => (
  <a className="contact" href={telHref(phone)}>
    {phone}
  </a>
);

export const EmailLink = ({ email }: { email: string }) => (
  <a className="contact" href={`mailto:${email}`}>
    {email}
  </a>
);

/** Words with contacts between them: `words[0] contact[0] words[1] contact[1] …`, as one sentence. */
export function WithContacts({ words, contacts }: { words: readonly string[]; contacts: readonly ReactNode[] }) {
  return (
    <>
      {words.map((word, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the sentence's pieces never move.
        <Fragment key={index}>
          {word}
          {contacts[index] ?? null}
        </Fragment>
      ))}
    </>
  );
}

type Contacts = { phone: string; phoneUk: string; email: string };

/** requirements 1's support sentence, its phones and address as links (the login page and the support pages). */
export const SupportSentence = ({ support }: { support: Contacts }) => (
  <WithContacts
    words={loginTexts.supportParts}
    contacts={[
      <PhoneLink key="phone" phone={support.phone} />,
      <PhoneLink key="uk" phone={support.phoneUk} />,
      <EmailLink key="email" email={support.email} />,
    ]}
  />
);
