# syntax=docker/dockerfile:1
#
# Image of the service: the same image runs the HTTP API (default) or the worker.
#
#   docker build -t service .
#   docker run -e DATABASE_URL=postgres://… -e REDIS_URL=redis://… -e SESSION_SECRET=<32+ chars> \
#              -p 3000:3000 service                        # API (runs pending migrations at boot)
#   docker run -e DATABASE_URL=… -e REDIS_URL=… -e SESSION_SECRET=… service dist/src/worker.js
#
# NODE_ENV=production here, so DATABASE_URL and SESSION_SECRET are required (the embedded
# PostgreSQL and the generated development secret are for `npm start` on a workstation). Set
# MIGRATIONS_RUN=0 on all but one replica if you prefer to migrate from a separate job
# (`docker run … service node_modules/typeorm/cli.js -d dist/ormconfig.js migration:run`);
# concurrent starters are safe either way (advisory lock). Health: GET /health on the API port.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------
# Build stage: full dependency install (argon2 compiles from source when no prebuilt binary fits
# the Node-API version, hence python3/make/g++), TypeScript build, then drop devDependencies.
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# node-gyp uses the headers shipped in the image instead of downloading them.
ENV npm_config_nodedir=/usr/local
# The npm the lockfile and the install-script policy (`allowScripts` in package.json,
# `strict-allow-scripts` in .npmrc) were made with.
ARG NPM_VERSION=11.19.1
RUN npm install -g npm@${NPM_VERSION}
WORKDIR /app
# Dependencies first, so source changes reuse the cached install layer.
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY scripts ./scripts
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build \
 && npm prune --omit=dev \
 && npm cache clean --force

# ---------------------------------------------------------------------------------------------
# Runtime stage: no compiler, no devDependencies, no sources; runs as the unprivileged `node`
# user (uid 1000) of the base image.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The code is read-only for the service user; only DATA_DIR is writable.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# Node handles SIGTERM itself (graceful shutdown); run with `docker run --init` (or tini) if you
# also want zombie reaping. No HEALTHCHECK here: the worker shares this image and has no HTTP
# port; probe GET /health on the API containers from the orchestrator.
ENTRYPOINT ["node"]
CMD ["dist/src/main.js"]
