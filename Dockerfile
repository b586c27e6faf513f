# Lookout: one image for `lookout serve` (any role) and `lookout agent`.
FROM node:20-bookworm-slim
# Chromium for browser and multi-step checks, ping for ICMP checks, bubblewrap to sandbox check code
# (the container needs user namespaces for it: see compose.yaml's security_opt and README "Sandbox").
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium iputils-ping ca-certificates bubblewrap \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The server (src/ compiled to dist/) and the console are built once the sources are in (the
# `prepare` script needs them).
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build
ENV NODE_ENV=production LOOKOUT_CHROMIUM_PATH=/usr/bin/chromium HOST=0.0.0.0 PORT=4000
EXPOSE 4000 8081
# The compiled server: no TypeScript compiler at run time.
ENTRYPOINT ["node", "bin/lookout.js"]
CMD ["serve"]
