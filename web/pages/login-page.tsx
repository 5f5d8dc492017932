// The login page (SPEC.md 2.2): the splash beside the login island; also the tax-bridge login entry.
import { Frame } from "#web/components/frame.tsx";
import { Island } from "#web/components/island.tsx";
import { Note } from "#web/components/note.tsx";
import { Splash } from "#web/components/splash.tsx";
import type { IslandProps } from "#web/islands/registry.ts";
import type { PageContext } from "#web/pages/page-context.ts";
import { loginTexts } from "#web/texts/login.ts";

type Props = {
  context: PageContext;
  login: IslandProps<"login">;
  /** The page came over plain http to an address that is not this machine: the Secure cookie cannot be kept. */
  plainHttp?: boolean;
};

export function LoginPage({ context, login, plainHttp = false }: Props) {
  return (
    <Frame context={context}>
      <div className="login-layout">
        <Splash assets={context.assets} />
        <article className="login-card">
          {plainHttp ? <Note kind="info">{loginTexts.plainHttp}</Note> : null}
          <Island name="login" props={login} />
        </article>
      </div>
    </Frame>
  );
}
