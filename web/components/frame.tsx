// The frame of every page: header with the brand (and, when signed in, the user, the company and sign out), main,
// footer. The header stays one line on a phone: the brand's name steps aside and the account chip shortens.
import type { ReactNode } from "react";
import { IdleWarning } from "#web/components/idle-warning.tsx";
import { Isolated, isolate } from "#web/components/isolated.tsx";
import { Logo } from "#web/components/logo.tsx";
import type { PageContext } from "#web/page-context.ts";
import { pathOf } from "#web/routes/table.ts";
import { layoutTexts } from "#web/texts/layout.ts";

/**
 * Who is signed in: the user and the company, each when known; the site's account when neither is. A link to the
 * person's own account page (their change-password page).
 */
function Account({ user }: { user: NonNullable<PageContext["user"]> }) {
  const { name, company } = user;
  return (
    <a
      className="account"
      href={pathOf(user.site, "Change Password")}
      title={[isolate(name), isolate(company ?? ""), layoutTexts.yourAccount].filter(Boolean).join(" · ")}
    >
      <span className="visually-hidden">{`${layoutTexts.signedInAs} `}</span>
      {name ? (
        <span className="account-user">
          <Isolated text={isolate(name)} />
        </span>
      ) : null}
      {name && company ? <span className="visually-hidden"> {layoutTexts.atCompany} </span> : null}
      {company ? (
        <span className="account-company">
          <Isolated text={isolate(company)} />
        </span>
      ) : null}
      {!name && !company ? <span className="account-user">{layoutTexts.accountOf(user.site)}</span> : null}
      <span className="account-lead">{layoutTexts.security}</span>
      <span className="visually-hidden">{`, ${layoutTexts.yourAccount}`}</span>
    </a>
  );
}

/** The skip link's target: `<main>`, or the element a page marks with it when its own content starts later in main. */
export const CONTENT_ID = "content";

export function Frame({
  context,
  children,
  wide = false,
  contentMarked = false,
}: {
  context: PageContext;
  children: ReactNode;
  wide?: boolean;
  /** The page puts CONTENT_ID on its own content (a section page's screen, after its navigation). */
  contentMarked?: boolean;
}) {
  const { user } = context;
  const container = wide ? "container-fluid" : "container";
  return (
    <>
      <a className="skip-link" href={`#${CONTENT_ID}`}>
        {layoutTexts.skipToContent}
      </a>
      <header className="site-header">
        <div className="site-header-bar container-fluid">
          <a
            href={user ? pathOf(user.site, "Home") : pathOf("public", "Sign In")}
            className="brand"
            aria-label={layoutTexts.brand}
          >
            <Logo />
            <span className="brand-name">{layoutTexts.brand}</span>
          </a>
          {user ? (
            <div className="site-header-account">
              <Account user={user} />
              <form method="post" action="/session/logout" className="sign-out">
                <button type="submit" className="secondary outline">
                  {layoutTexts.signOut}
                </button>
              </form>
            </div>
          ) : null}
        </div>
      </header>
      <main id={contentMarked ? undefined : CONTENT_ID} className={container}>
        {children}
      </main>
      {context.idleWarning ? <IdleWarning path={context.path} /> : null}
      {/* The footer in main's container, so its words line up with the content's. */}
      <footer className={`site-footer ${container}`}>
        <small>
          <strong>{layoutTexts.brand}</strong> · {layoutTexts.copyright(context.year)}
        </small>
      </footer>
    </>
  );
}
