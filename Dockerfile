# One build, one image per service (a target each): command, query, notifier, all-in-one, gateway.
# Multi-stage: build tools stay in the build stage; the runtime runs as the unprivileged `node` user.

FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY platform/package.json platform/
COPY services/command/package.json services/command/
COPY services/medicines/package.json services/medicines/
COPY services/query/package.json services/query/
COPY services/notifier/package.json services/notifier/
COPY services/all-in-one/package.json services/all-in-one/
COPY frontend/package.json frontend/
COPY tests/package.json tests/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run typecheck

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"

FROM runtime AS command
CMD ["node", "--import", "tsx", "services/command/src/main.ts"]

FROM runtime AS query
CMD ["node", "--import", "tsx", "services/query/src/main.ts"]

FROM runtime AS notifier
CMD ["node", "--import", "tsx", "services/notifier/src/main.ts"]

FROM runtime AS all-in-one
CMD ["node", "--import", "tsx", "services/all-in-one/src/main.ts"]

# The gateway: serves the built frontend and routes the API (reads to query, writes to command, /ws to notifier).
FROM caddy:2-alpine AS gateway
COPY deploy/Caddyfile /etc/caddy/Caddyfile
COPY --from=build /app/frontend/dist /srv
