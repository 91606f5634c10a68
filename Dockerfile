# One image for every role of the scaled deployment (docs/operations.md, 'Running it scaled'):
#   npm run start:server   HTTP + Socket.IO          npm run start:worker   pollers, jobs, schedules
#   npm run simulate       the fleet simulator       npm run seed           the demo data, once
# Multi-stage: the client is built here, at image build time; the runtime holds production dependencies
# only (tsx runs the TypeScript sources, it is a server dependency), runs as the unprivileged `node` user
# and reports its health to the engine. No secret is baked in: they all come from the environment.

# --- 1. every dependency, for the client build -------------------------------------------------------
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY workers/package.json workers/
COPY client/package.json client/
RUN npm ci --no-audit --no-fund

# --- 2. the client bundle -----------------------------------------------------------------------------
FROM deps AS client
COPY tsconfig.json ./
COPY shared shared
COPY client client
RUN npm run build -w client

# --- 3. production dependencies of what runs (server, workers, shared; the client is static files) -----
FROM node:20-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY workers/package.json workers/
COPY client/package.json client/
RUN npm ci --omit=dev --no-audit --no-fund -w shared -w server -w workers --include-workspace-root \
  && npm cache clean --force

# --- 4. the runtime -----------------------------------------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data \
    LOG_FORMAT=json
WORKDIR /app
# node_modules at the root and any a workspace needs of its own.
COPY --from=runtime-deps /app /app
COPY tsconfig.json ./
COPY shared shared
COPY server server
COPY workers workers
COPY client/package.json client/
COPY --from=client /app/client/dist client/dist
# Uploads, the report files and the mail outbox (when no SMTP_URL) live in DATA_DIR: the only writable place.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
# /healthz answers on servers and workers alike (workers serve only health and metrics).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains the process within 10 s (server/src/ops/shutdown.ts); compose gives it a little more.
STOPSIGNAL SIGTERM
CMD ["npm", "run", "start:server"]
