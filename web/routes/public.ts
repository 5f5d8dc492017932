// requirements 2.1: the top-level routes. Rows marked † there render their title and purpose inside the portal's frame.
import { type RouteEntry, rowsOf } from "#web/routes/row.ts";

const { row, same } = rowsOf("public");

const register = row("/register", "Registration", {
  about: "Registration of a new vendor with the payments provider.",
});

export const publicRoutes: readonly RouteEntry[] = [
  row("/", "Login", { screen: "login" }),
  row("/tax-bridge/login", "Tax Bridge Login", { screen: "tax-bridge-login" }),
  row("/mfa", "Verify This Device", { screen: "mfa" }),
  register,
  same("/vendoralert", register),
  row("/register/tax", "Tax Registration", { about: "Tax registration of a vendor." }),
  row("/registered", "Registration Received", { about: "Confirmation that a registration was received." }),
  row("/login", "Login", { screen: "link-login" }),
  row("/videos/:videoId", "Video", { about: "A training video of the portal." }),
  row("/approval/login", "Approval Login", { about: "Sign-in for approvers." }),
  row("/approval/dashboard", "Approval Dashboard", { about: "Payments waiting for an approver's decision." }),
  // Before the sections' rows: these paths lie under /uspto and /uscis but need no session.
  row("/uspto/login", "Patent Fees Login", { about: "Sign-in for the patent-fee section." }),
  row("/uspto/matter/login", "Patent Matter Login", { about: "Sign-in to one patent matter." }),
  row("/uscis/login", "Immigration Fees Login", { about: "Sign-in for the immigration-fee section." }),
  row("/uscis/g1450/login", "G-1450 Login", { about: "Sign-in to the G-1450 card-authorisation form." }),
];
