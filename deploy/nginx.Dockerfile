# nginx in front of the app replicas (docker-compose.yml), from Debian's own nginx package: any Debian-style base
# works, so the stack can be built where Docker Hub is out of reach (docs/deploy.md). The configuration is
# deploy/nginx.conf, mounted by docker-compose.yml and filled in at start.
#   docker build -f deploy/nginx.Dockerfile -t mha-explorer-nginx deploy
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx \
    && rm -rf /var/lib/apt/lists/* \
    && ln -sf /dev/stdout /var/log/nginx/access.log \
    && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
