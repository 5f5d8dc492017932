// The login page (SPEC.md 2.2): the splash beside the login island; also the tax-bridge login entry.
import { Frame } from "#web/components/frame.tsx";
import { Island } from "#web/components/island.tsx";
import { Splash } from "#web/components/splash.tsx";
import type { IslandProps } from "#web/islands/registry.ts";
import type { PageContext } from "#web/pages/page-context.ts";

export function LoginPage({ context, login }: { context: PageContext; login: IslandProps<"login"> }) {
  return (
    <Frame context={context}>
      <div className="login-layout">
        <Splash assets={context.assets} />
        <article className="login-card">
          <Island name="login" props={login} />
        </article>
      </div>
    </Frame>
  );
}
