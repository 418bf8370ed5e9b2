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
COPY shell/package.json shell/
COPY mf-learner/package.json mf-learner/
COPY mf-exams/package.json mf-exams/
COPY mf-admin/package.json mf-admin/
COPY mf-certifications/package.json mf-certifications/
RUN npm ci --no-audit --no-fund
ENV NODE_ENV=production

FROM base AS web
COPY shell ./shell
COPY mf-learner ./mf-learner
COPY mf-exams ./mf-exams
COPY mf-admin ./mf-admin
COPY mf-certifications ./mf-certifications
RUN npm run build

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
CMD ["node", "svc-certs/src/server.ts"]

FROM base AS svc-notify
COPY svc-notify ./svc-notify
EXPOSE 4004
CMD ["node", "svc-notify/src/server.ts"]

FROM base AS gateway
COPY gateway ./gateway
COPY --from=web /app/shell/dist ./shell/dist
COPY --from=web /app/mf-learner/dist ./mf-learner/dist
COPY --from=web /app/mf-learner/dist-player ./mf-learner/dist-player
COPY --from=web /app/mf-exams/dist ./mf-exams/dist
COPY --from=web /app/mf-admin/dist ./mf-admin/dist
COPY --from=web /app/mf-certifications/dist ./mf-certifications/dist
EXPOSE 8080 8081
CMD ["node", "gateway/src/server.ts"]
