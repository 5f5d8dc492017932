// Loaded first in every test and bench process (`--import`, after tsx: package.json's test and bench scripts,
// scripts/test-shares.ts): pages are rendered with React's production build, the one the portal runs. React picks its
// build from NODE_ENV when first loaded, and an unset NODE_ENV would load the development build: its checks make a
// page about 1.6 times as costly to render, and nothing of the portal reads its warnings. NODE_ENV is put back at once,
// so nothing else sees it (the portals started in process get theirs from the options they are given).
const before = process.env.NODE_ENV;
process.env.NODE_ENV = "production";
await Promise.all(
  ["react", "react/jsx-runtime", "react-dom", "react-dom/client", "react-dom/server"].map((entry) => import(entry)),
);
if (before === undefined) delete process.env.NODE_ENV;
else process.env.NODE_ENV = before;
