# The portal in one container: dependencies → build → production dependencies → runtime (non-root, compiled JavaScript).
# Node 24 LTS, the version scripts/node-lts.pins names (tests/node-lts.test.ts holds them equal). Nothing is compiled:
# the sandbox's database is Node's own node:sqlite (docs/decisions.md, "Runtime and install"). The runtime needs
# UPSTREAM_URL and SESSION_KEY (or SANDBOX=true).
FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

FROM deps AS prod-deps
RUN npm prune --omit=dev

FROM node:24.21.0-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
# Node 24 sizes its young generation to the machine: under load a replica peaked at 452 MiB of a 512 Mi pod. 8 MiB
# semi-spaces keep it near 230 MiB at no measurable CPU (docs/performance.md, rows 7c and 7e).
ENV NODE_OPTIONS="--max-semi-space-size=8"
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself is PID 1 and gets SIGTERM: in-flight requests finish and queued page visits are sent before it exits.
# The launcher is `npm start`'s: the portal alone with UPSTREAM_URL (the sandbox's code is never loaded), the sandbox
# first and then the portal with SANDBOX=true. dist/ holds both programs (dist/server/, dist/sandbox/).
CMD ["node", "--enable-source-maps", "dist/sandbox/launch.js"]
