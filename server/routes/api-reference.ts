// Development only: a reference page for openapi/portal.yaml, drawn by swagger-ui-dist (a devDependency found at start).
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";
import { newNonce } from "#server/render/nonce.ts";

const specFile = new URL("../../openapi/portal.yaml", import.meta.url);

/** The package files the page loads. Its own index.html and initializer are not served: they point at a demo API. */
const packageFiles = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
} as const;

/**
 * Our initializer, an external script so the page keeps the portal's CSP. "Try it out" is off: the upstream's
 * operations are reached through the portal's `/api` (with its CSRF header), not from this page.
 */
const initializer = `window.ui = SwaggerUIBundle({
  url: "/reference/portal.yaml",
  dom_id: "#reference",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  supportedSubmitMethods: [],
  validatorUrl: null,
});
`;

const page = (nonce: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Upstream API reference (openapi/portal.yaml)</title>
<link rel="stylesheet" href="/reference/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script nonce="${nonce}" src="/reference/swagger-ui-bundle.js"></script>
<script nonce="${nonce}" src="/reference/initializer.js"></script>
</body>
</html>
`;

/** Where swagger-ui-dist is installed; undefined in a tree without devDependencies. */
function packageDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  } catch {
    return undefined;
  }
}

export async function apiReferenceRoutes(app: FastifyInstance): Promise<void> {
  const dir = packageDir();
  if (!dir) {
    app.log.warn("swagger-ui-dist is not installed (devDependencies pruned): no API reference at /reference");
    return;
  }
  app.get("/reference", async (_request, reply) => {
    const nonce = newNonce();
    return reply
      .type("text/html; charset=utf-8")
      .header(
        "content-security-policy",
        `default-src 'self'; script-src 'nonce-${nonce}' 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:`,
      )
      .send(page(nonce));
  });
  app.get("/reference/initializer.js", async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(initializer),
  );
  app.get("/reference/portal.yaml", async (_request, reply) =>
    reply.type("application/yaml; charset=utf-8").send(await readFile(specFile, "utf8")),
  );
  for (const [file, type] of Object.entries(packageFiles))
    app.get(`/reference/${file}`, async (_request, reply) => reply.type(type).send(createReadStream(join(dir, file))));
}
