# syntax=docker/dockerfile:1
# ocr container image: a static binary on a small image with git >= 2.41.
# Build: docker build -t ocr --build-arg VERSION=1.0.0 .

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/ocr-ci/ocr/runner.Version=${VERSION}" \
      -o /out/ocr ./cmd/ocr

FROM alpine:3.22 AS runtime
# git reads the repository under review (never checks it out); CA
# certificates reach the LLM endpoint and the GitHub/GitLab APIs.
RUN apk add --no-cache git ca-certificates \
 && git --version \
 && git config --system --add safe.directory '*'
COPY --from=build /out/ocr /usr/local/bin/ocr
# uid 1001 is the GitHub runner's user, so files ocr writes into a mounted
# workspace (the SARIF file, the step summary) stay writable for later steps.
# safe.directory '*' above lets git read a workspace owned by another user.
ENV HOME=/tmp
USER 1001:1001
ENTRYPOINT ["ocr"]
CMD ["review"]
