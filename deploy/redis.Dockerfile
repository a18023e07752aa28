# Redis for the live-class rooms (docker-compose.yml), from Debian's own redis-server package: any Debian-style
# base works, so the stack can be built where Docker Hub is out of reach (docs/deploy.md).
#   docker build -f deploy/redis.Dockerfile -t mha-explorer-redis deploy
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data && chown redis:redis /data
# the package's own system user (its uid is chosen at install time)
# hadolint ignore=DL3066
USER redis
WORKDIR /data
EXPOSE 6379
HEALTHCHECK --interval=2s --timeout=2s --retries=5 CMD ["redis-cli", "ping"]
# Reached by the app replicas over the compose network, without a password: protected mode would refuse them.
# Keep port 6379 unpublished (docker-compose.yml publishes none).
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--dir", "/data"]
