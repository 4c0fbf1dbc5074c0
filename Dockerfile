# syntax=docker/dockerfile:1
# ocr container image: a static ocr binary on Alpine with git >= 2.41 and CA
# certificates, running as a non-root user. Used by action.yml (the GitHub
# runner builds this file) and by gitlab/ocr.yml (a published image).
#
#   docker build -t ocr --build-arg VERSION=1.2.3 .   (default: the source's runner.Version)
#   docker run --rm -v "$PWD:/work" -w /work ocr review --commit HEAD --preview

# TARGETOS/TARGETARCH are set by BuildKit (docker buildx build --platform
# ...); empty, the build is native. To cross-compile instead of emulating,
# add --platform=$BUILDPLATFORM to this FROM (BuildKit only).
FROM golang:1.26-alpine AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION
ARG TARGETOS
ARG TARGETARCH
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -buildvcs=false \
      -ldflags "-s -w ${VERSION:+-X github.com/ocr-ci/ocr/runner.Version=$VERSION}" \
      -o /out/ocr ./cmd/ocr

FROM alpine:3.22 AS runtime
# git reads the repository under review (ocr never checks it out) and
# fetches missing history in shallow clones; CA certificates reach the LLM
# endpoint and the GitHub/GitLab APIs. The build fails on a git older than
# 2.41. safe.directory '*': a mounted workspace belongs to another user (the
# CI runner), and git refuses to read such a repository without it.
RUN apk add --no-cache git ca-certificates \
 && git --version | awk '{ split($3, v, "."); if (v[1] < 2 || (v[1] == 2 && v[2] < 41)) { print "git " $3 " is older than 2.41"; exit 1 } }' \
 && git config --system --add safe.directory '*' \
 && adduser -D -u 1001 -h /home/ocr ocr
COPY --from=build /out/ocr /usr/local/bin/ocr
# uid 1001 is the `runner` user of GitHub-hosted runners: the workspace, the
# event file and $GITHUB_OUTPUT it mounts are readable and writable, and the
# files ocr writes (SARIF, Code Quality) stay usable by later steps.
USER 1001:1001
ENV HOME=/home/ocr
ENTRYPOINT ["ocr"]
CMD ["review"]
