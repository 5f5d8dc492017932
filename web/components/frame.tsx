// The frame of every page: header with the brand (and, when signed in, the user and sign out), main, footer.
import type { ReactNode } from "react";
import { IdleWarning } from "#web/components/idle-warning.tsx";
import { Logo } from "#web/components/logo.tsx";
import type { PageContext } from "#web/pages/page-context.ts";
import { pathOf } from "#web/routes/table.ts";
import { layoutTexts } from "#web/texts/layout.ts";

export function Frame({
  context,
  children,
  wide = false,
}: {
  context: PageContext;
  children: ReactNode;
  wide?: boolean;
}) {
  const { user } = context;
  return (
    <>
      <a className="skip-link" href="#content">
        {layoutTexts.skipToContent}
      </a>
      <header className="site-header container-fluid">
        <nav>
          <ul>
            <li>
              <a href={user ? pathOf(user.site, "Home") : pathOf("public", "Login")} className="brand">
                <Logo />
                <strong>{layoutTexts.brand}</strong>
              </a>
            </li>
          </ul>
          {user ? (
            <ul>
              {user.name ? <li className="signed-in-as">{layoutTexts.signedInAs(user.name)}</li> : null}
              <li>
                <form method="post" action="/session/logout" className="sign-out">
                  <button type="submit" className="secondary outline">
                    {layoutTexts.signOut}
                  </button>
                </form>
              </li>
            </ul>
          ) : null}
        </nav>
      </header>
      <main id="content" className={wide ? "container-fluid" : "container"}>
        {children}
      </main>
      {user ? <IdleWarning path={context.path} /> : null}
      <footer className="site-footer container">
        <small>
          <strong>{layoutTexts.brand}</strong> · {layoutTexts.copyright(context.year)}
        </small>
      </footer>
    </>
  );
}
