# same-game as one stateless HTTP replica (docs/shared-service.md, "Running as a shared service"). The record is named by
# SAME_GAME_DB (a postgres:// URL for a shared service); bearer tokens come from a mounted file.
# NODE_IMAGE: the official image, or deploy/stand-ins' local one where no image registry is reachable.
ARG NODE_IMAGE=node:20-slim
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY games ./games
COPY framings ./framings
COPY styles ./styles
COPY db ./db
COPY data ./data
RUN chmod +x dist/cli/main.js && ln -s /app/dist/cli/main.js /usr/local/bin/same-game
# The image's own unprivileged user (uid 1000): the server needs no privilege, and port 8787 is above 1023.
USER node
EXPOSE 8787
# Liveness only (no database): compose's readiness check asks /readyz, which does a round trip.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) drains: no new requests, in-flight calls finish within --drain-timeout, exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["same-game"]
CMD ["serve", "--http", "--host", "0.0.0.0", "--port", "8787", "--token-file", "/run/secrets/same_game_tokens"]
