# syntax=docker/dockerfile:1
# ocr container image: the release binary on Debian slim with git and CA
# certificates, running as a non-root user. Published by goreleaser
# (.goreleaser.yaml, dockers_v2) as ghcr.io/ocr-ci/ocr:vX.Y.Z and :vX for
# linux/amd64 and linux/arm64; used by the GitLab CI/CD component
# (gitlab/templates/review.yml).
#
# Nothing is compiled here: the build context holds the release binaries as
# $TARGETPLATFORM/ocr (linux/amd64/ocr, linux/arm64/ocr), as goreleaser
# lays them out. A local image from a clone:
#
#   mkdir -p linux/amd64 && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -o linux/amd64/ocr ./cmd/ocr
#   docker build --platform linux/amd64 -t ocr .
#   docker run --rm -v "$PWD:/work" -w /work ocr review --commit HEAD --preview
#
# BASE is the only difference between this image and the one .ci/extra
# builds and runs: there, a bookworm root filesystem made by debootstrap
# from the Debian mirror, since no registry is reachable.
ARG BASE=debian:bookworm-slim
FROM ${BASE}
ARG TARGETPLATFORM
# git reads the repository under review (ocr never checks it out) and
# fetches missing history in shallow clones; ocr needs git 2.30 or later
# (bookworm has 2.39). CA certificates reach the LLM endpoint and the
# GitHub/GitLab APIs. safe.directory '*': a mounted workspace belongs to
# another user (the CI runner), and git refuses to read such a repository
# without it.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb \
 && git --version | awk '{ split($3, v, "."); if (v[1] < 2 || (v[1] == 2 && v[2] < 30)) { print "git " $3 " is older than 2.30"; exit 1 } }' \
 && git config --system --add safe.directory '*' \
 && useradd --uid 1001 --user-group --create-home --home-dir /home/ocr --shell /bin/sh ocr
COPY $TARGETPLATFORM/ocr /usr/local/bin/ocr
# uid 1001 is the `runner` user of GitHub-hosted runners: a mounted
# workspace is readable and writable, and the files ocr writes (SARIF, Code
# Quality) stay usable by later steps. HOME is the user's own, writable.
USER 1001:1001
ENV HOME=/home/ocr
ENTRYPOINT ["ocr"]
CMD ["review"]
