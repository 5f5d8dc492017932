// Development: rebuild the browser assets, then start the portal; `npm run dev` restarts this on every change.
import { buildAssets } from "./build.ts";

await buildAssets();
await import("#sandbox/launch.ts");
