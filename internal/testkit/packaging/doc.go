// Package packaging holds the tests of how ocr is shipped: the GitHub
// Action's install script (action/install.sh) and composite steps
// (action.yml, run by an emulated runner) against a fake release on
// loopback and a fake cosign, the pinning of third-party actions, the
// GitLab component's image reference, the release configuration, and the
// container image run for real (buildah, when .ci/extra has built it). It
// has no code of its own.
package packaging
