// Package packaging holds the tests of how ocr is shipped: the GitHub
// Action's install script (action/install.sh) against a fake release on
// loopback, and the container image run for real (buildah, when .ci/extra
// has built it). It has no code of its own.
package packaging
