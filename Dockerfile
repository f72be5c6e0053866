# One image for every process of the service; docker-compose.yml picks the command per service.
FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
# deploy/node.env (issue 24: memory), the same for every process; lib/node-env.test.ts checks they agree.
ENV NODE_OPTIONS="--max-semi-space-size=2 --v8-pool-size=1" MALLOC_ARENA_MAX=2 NODE_COMPILE_CACHE=/tmp/bnpl-node-compile-cache V8_HEAP_GROWING_PERCENT=50
COPY domain ./domain
COPY lib ./lib
COPY adapters ./adapters
COPY proto ./proto
COPY gateway ./gateway
COPY services ./services
COPY workers ./workers
COPY scripts/grpc-health.ts scripts/reseal.ts ./scripts/
USER node
EXPOSE 8080
CMD ["node", "gateway/main.ts"]
