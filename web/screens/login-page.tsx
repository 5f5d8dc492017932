// The login page (requirements 2.2): the splash beside the login island; also the tax-bridge login entry.
import { Frame } from "#web/components/frame.tsx";
import { Note } from "#web/components/note.tsx";
import { Splash } from "#web/components/splash.tsx";
import { Island } from "#web/islands/island.tsx";
import type { IslandProps } from "#web/islands/registry.ts";
import type { PageContext } from "#web/page-context.ts";
import { loginNotices } from "#web/texts/login-notices.ts";

type Props = {
  context: PageContext;
  login: IslandProps<"login">;
  /** The page came over plain http to an address that is not this machine: the Secure cookie cannot be kept. */
  plainHttp?: boolean;
  /** "Sign in to continue to Aging Report": a signed-out person's deep link was kept. */
  leadsTo?: string | undefined;
};

/** The page is `/tax-bridge/login`: it says that the sign-in made here is in tax-bridge mode. */
const taxBridgeNote = (login: IslandProps<"login">) =>
  login.taxBridge ? <p className="continue-to">{loginNotices.taxBridge}</p> : null;

export function LoginPage({ context, login, plainHttp = false, leadsTo }: Props) {
  return (
    <Frame context={context}>
      <div className="login-layout">
        <Splash assets={context.assets} />
        <article className="login-card">
          {plainHttp ? <Note kind="info">{loginNotices.plainHttp}</Note> : null}
          {taxBridgeNote(login)}
          {leadsTo ? <p className="continue-to">{leadsTo}</p> : null}
          <Island name="login" props={login} />
        </article>
      </div>
    </Frame>
  );
}
