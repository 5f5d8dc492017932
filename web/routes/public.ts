// requirements 2.1: the top-level routes. Rows marked † there render their title and purpose inside the portal's frame.
import { type RouteEntry, rowsOf } from "#web/routes/row.ts";

const { row, same } = rowsOf("public");

const register = row("/register", "Registration", {
  about: "Registration of a new vendor with the payments provider.",
});

export const publicRoutes: readonly RouteEntry[] = [
  row("/", "Sign In", { screen: "login" }),
  row("/tax-bridge/login", "Tax Bridge Sign In", { screen: "tax-bridge-login" }),
  row("/mfa", "Verify This Device", { screen: "mfa" }),
  register,
  same("/vendoralert", register),
  row("/register/tax", "Tax Registration", { about: "Tax registration of a vendor." }),
  row("/registered", "Registration Received", { about: "Confirmation that a registration was received." }),
  row("/login", "Sign In with a Link", { screen: "link-login" }),
  row("/videos/:videoId", "Video", { about: "A training video of the portal." }),
  row("/approval/login", "Approval Sign In", { about: "Sign-in for approvers." }),
  row("/approval/dashboard", "Approval Dashboard", { about: "Payments waiting for an approver's decision." }),
  // Before the sections' rows: these paths lie under /uspto and /uscis but need no session.
  row("/uspto/login", "Patent Fees Sign In", { about: "Sign-in for the patent-fee section." }),
  row("/uspto/matter/login", "Patent Matter Sign In", { about: "Sign-in to one patent matter." }),
  row("/uscis/login", "Immigration Fees Sign In", { about: "Sign-in for the immigration-fee section." }),
  row("/uscis/g1450/login", "G-1450 Sign In", { about: "Sign-in to the G-1450 card-authorisation form." }),
];
