// What @preact/signals-react takes from the use-sync-external-store shim, from React itself (scripts/build.ts).
export { useSyncExternalStore } from "react";
