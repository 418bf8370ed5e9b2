# One image, one target per deployable (compose.yaml builds each target).
FROM node:24-bookworm-slim AS base
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY svc-identity/package.json svc-identity/
COPY svc-learning/package.json svc-learning/
COPY svc-certs/package.json svc-certs/
COPY svc-notify/package.json svc-notify/
COPY gateway/package.json gateway/
COPY launcher/package.json launcher/
COPY shell/package.json shell/
COPY mf-learner/package.json mf-learner/
COPY mf-exams/package.json mf-exams/
COPY mf-admin/package.json mf-admin/
COPY mf-certifications/package.json mf-certifications/
RUN npm ci --no-audit --no-fund
ENV NODE_ENV=production

FROM base AS web
COPY shell ./shell
RUN npm run build -w shell

# Each remote deploys on its own: its build behind the static server (packages/static-server).
FROM base AS mf-learner
COPY mf-learner ./mf-learner
RUN npm run build -w mf-learner
ENV STATIC_DIR=mf-learner/dist PORT=8080
EXPOSE 8080
CMD ["node", "packages/static-server/src/server.ts"]

FROM base AS mf-exams
COPY mf-exams ./mf-exams
RUN npm run build -w mf-exams
ENV STATIC_DIR=mf-exams/dist PORT=8080
EXPOSE 8080
CMD ["node", "packages/static-server/src/server.ts"]

FROM base AS mf-admin
COPY mf-admin ./mf-admin
RUN npm run build -w mf-admin
ENV STATIC_DIR=mf-admin/dist PORT=8080
EXPOSE 8080
CMD ["node", "packages/static-server/src/server.ts"]

FROM base AS mf-certifications
COPY mf-certifications ./mf-certifications
RUN npm run build -w mf-certifications
ENV STATIC_DIR=mf-certifications/dist PORT=8080
EXPOSE 8080
CMD ["node", "packages/static-server/src/server.ts"]

FROM base AS svc-identity
COPY svc-identity ./svc-identity
EXPOSE 4001
CMD ["node", "svc-identity/src/server.ts"]

FROM base AS svc-learning
COPY svc-learning ./svc-learning
EXPOSE 4002
CMD ["node", "svc-learning/src/server.ts"]

FROM base AS svc-certs
COPY svc-certs ./svc-certs
EXPOSE 4003
CMD ["node", "--max-semi-space-size=8", "svc-certs/src/server.ts"]

FROM base AS svc-notify
COPY svc-notify ./svc-notify
EXPOSE 4004
CMD ["node", "svc-notify/src/server.ts"]

# The gateway serves the shell; the remotes come from their own servers (REMOTE_<NAME>_URL).
FROM base AS gateway
COPY gateway ./gateway
COPY --from=web /app/shell/dist ./shell/dist
# The content player is the content origin's own page (decision 0018): the gateway serves it.
COPY --from=mf-learner /app/mf-learner/dist-player ./mf-learner/dist-player
EXPOSE 8080 8081
CMD ["node", "gateway/src/server.ts"]
