// The signed-in pages' own script: it keeps their idle warning and watches their session (web/client/session-watch.ts),
// from the times and the session the server wrote into the page.
import { watchSession } from "#web/client/session-watch.ts";

const warning = document.querySelector<HTMLElement>(".idle-warning");
const checkIn = Number(document.body.dataset.idleCheck);
const session = document.body.dataset.session;
if (warning && Number.isFinite(checkIn)) watchSession(warning, { checkIn, ...(session ? { session } : {}) });
