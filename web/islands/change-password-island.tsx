// The change-password pages' island (requirements 2.5): the form with its heading, password rules and notes.
import { ChangePasswordForm } from "#web/components/change-password-form.tsx";
import type { Site } from "#web/site.ts";

export type ChangePasswordIslandProps = {
  audience: Site;
  userName?: string;
  redirect: boolean;
  currentPassword?: string;
  notice?: string;
};

export default function ChangePasswordIsland(props: ChangePasswordIslandProps) {
  return <ChangePasswordForm {...props} />;
}
