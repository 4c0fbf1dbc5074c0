#!/usr/bin/env bash
# Installs the ocr release binary for the GitHub Actions runner; action.yml
# runs it in two steps (bash on Linux, macOS and Windows runners):
#
#   install.sh resolve   which release the action's ref means, or "source"
#   install.sh install   download, verify against checksums.txt, extract
#
# resolve reads:
#   SETUP_OCR_VERSION  the action's version input: a release (1.2.3 or
#                      v1.2.3), or empty for the ref of `uses:`
#   SETUP_OCR_REF      github.action_ref: v1.2.3 is that release; v1 or
#                      v1.2 is the release tag on the same commit (else the
#                      newest v1.x.y); anything else (main, a SHA, a local
#                      ./) means build from source
#   SETUP_OCR_GIT_URL  where the tags are listed (git ls-remote)
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP
# and writes to $GITHUB_OUTPUT: mode (release|source), version, os, arch,
# asset, dir.
#
# install reads SETUP_OCR_RELEASE, SETUP_OCR_ASSET and SETUP_OCR_DIR (the
# version, asset and dir outputs of resolve) and SETUP_OCR_RELEASES_URL
# (…/releases/download), and leaves ocr (ocr.exe on Windows) in
# SETUP_OCR_DIR. The archive in that directory is what actions/cache keeps:
# a cached archive is verified again, against a freshly downloaded
# checksums.txt, before it is extracted. Nothing is installed unless the
# SHA-256 matches.
set -euo pipefail

die() {
	echo "::error title=ocr install::$*" >&2
	exit 1
}

# platform maps RUNNER_OS/RUNNER_ARCH to goreleaser's GOOS/GOARCH.
platform() {
	case "${RUNNER_OS:-}" in
	Linux) os=linux ;;
	macOS) os=darwin ;;
	Windows) os=windows ;;
	*) die "unsupported runner OS '${RUNNER_OS:-}': ocr is released for Linux, macOS and Windows runners" ;;
	esac
	case "${RUNNER_ARCH:-}" in
	X64) arch=amd64 ;;
	ARM64) arch=arm64 ;;
	*) die "unsupported runner architecture '${RUNNER_ARCH:-}' on $RUNNER_OS: ocr is released for X64 and ARM64; use a ref that builds from source (@main) or run 'go install' yourself" ;;
	esac
}

semver='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'

# latest_tag prints the release tag for a moving major/minor tag ($1, v1 or
# v1.2): the vX.Y.Z tag on the same commit, else the highest vX.Y.Z under it.
latest_tag() {
	local ref=$1 refs sha
	refs="$(git ls-remote --tags "$SETUP_OCR_GIT_URL" 2>&1)" ||
		die "cannot list the tags of $SETUP_OCR_GIT_URL to find the release behind @$ref: $refs. Pin a full version (@v1.2.3) or set the version input"
	# Peeled (^{}) lines give the commit of annotated tags; the last line wins.
	sha="$(awk -v r="refs/tags/$ref" '$2 == r || $2 == r "^{}" { s = $1 } END { print s }' <<<"$refs")"
	[ -n "$sha" ] || die "the action's ref @$ref is not a tag of $SETUP_OCR_GIT_URL: use a release tag (@v1, @v1.2.3), a branch or a SHA"
	awk -v sha="$sha" -v pre="refs/tags/$ref." '
		index($2, pre) == 1 { t = $2; sub(/^refs\/tags\//, "", t); sub(/\^\{\}$/, "", t)
			if (t ~ /^v[0-9]+\.[0-9]+\.[0-9]+$/) { all[t] = 1; if ($1 == sha) same[t] = 1 } }
		END { for (t in all) { split(substr(t, 2), v, "."); print (t in same) ? 1 : 0, v[1], v[2], v[3], t } }' <<<"$refs" |
		sort -k1,1nr -k2,2nr -k3,3nr -k4,4nr | head -n1 | cut -d' ' -f5
}

resolve() {
	platform
	local ref="${SETUP_OCR_REF:-}" version="${SETUP_OCR_VERSION:-}" mode=release
	if [ -n "$version" ]; then
		[[ "$version" == v* ]] || version="v$version"
		[[ "$version" =~ $semver ]] || die "version input '$SETUP_OCR_VERSION' is not a release version: want 1.2.3 or v1.2.3, or leave it empty to use the ref of 'uses:'"
	elif [[ "$ref" =~ $semver ]]; then
		version="$ref"
	elif [[ "$ref" =~ ^v[0-9]+(\.[0-9]+)?$ ]]; then
		version="$(latest_tag "$ref")"
		[ -n "$version" ] || die "no release vX.Y.Z under @$ref in $SETUP_OCR_GIT_URL: pin a full version (@v1.2.3)"
	else
		mode=source
		version="0.0.0-${ref:-local}"
		version="${version//\//-}"
	fi
	local ext=tar.gz
	[ "$os" = windows ] && ext=zip
	local asset="ocr_${version#v}_${os}_${arch}.${ext}"
	local dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ocr-${version}-${os}-${arch}"
	if [ "$mode" = source ]; then
		asset=""
		echo "::notice title=ocr::@${ref:-(local action)} is not a release: building ocr from source with actions/setup-go (slower). Pin a release, e.g. @v1, to install the signed binary."
	else
		echo "ocr $version for $os/$arch: $asset"
	fi
	{
		echo "mode=$mode"
		echo "version=$version"
		echo "os=$os"
		echo "arch=$arch"
		echo "asset=$asset"
		echo "dir=$dir"
	} >>"${GITHUB_OUTPUT:-/dev/stdout}"
}

# unixpath turns a Windows path (D:\a\_temp) into Git Bash's form; other
# systems keep theirs.
unixpath() {
	if command -v cygpath >/dev/null; then cygpath -u "$1"; else printf '%s\n' "$1"; fi
}

# fetch URL FILE downloads with retries; fails with the HTTP status.
fetch() {
	local code
	code="$(curl -sSL --retry 3 --retry-delay 1 --connect-timeout 20 -o "$2" -w '%{http_code}' "$1")" || true
	[ "$code" = 200 ] && return 0
	rm -f "$2"
	echo "$code"
	return 1
}

sha256() {
	if command -v sha256sum >/dev/null; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

install() {
	local version="${SETUP_OCR_RELEASE:?}" asset="${SETUP_OCR_ASSET:?}" dir
	dir="$(unixpath "${SETUP_OCR_DIR:?}")"
	local base="${SETUP_OCR_RELEASES_URL:?}/$version" sums status want got
	mkdir -p "$dir"
	sums="$dir/checksums.txt"
	if ! status="$(fetch "$base/checksums.txt" "$sums")"; then
		if [ "$status" = 404 ]; then
			die "ocr $version has no release (HTTP 404 for $base/checksums.txt): check the version against the project's releases, or the release is still being published"
		fi
		die "cannot download $base/checksums.txt (HTTP ${status:-error}): retry the job"
	fi
	want="$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1 }' "$sums")"
	[ -n "$want" ] || die "checksums.txt of ocr $version lists no $asset: this platform is not in the release"
	if [ -f "$dir/$asset" ] && [ "$(sha256 "$dir/$asset")" = "$want" ]; then
		echo "cached $asset: SHA-256 verified"
	else
		rm -f "$dir/$asset"
		status="$(fetch "$base/$asset" "$dir/$asset.part")" ||
			die "cannot download $base/$asset (HTTP ${status:-error})"
		got="$(sha256 "$dir/$asset.part")"
		if [ "$got" != "$want" ]; then
			rm -f "$dir/$asset.part"
			die "refusing $asset: its SHA-256 is $got but checksums.txt of ocr $version says $want. The download is corrupt or was tampered with; nothing was installed. Re-run the job; if it persists, report it."
		fi
		mv "$dir/$asset.part" "$dir/$asset"
		echo "downloaded $asset: SHA-256 verified"
	fi
	rm -f "$dir/ocr" "$dir/ocr.exe"
	case "$asset" in
	*.zip)
		if command -v unzip >/dev/null; then
			unzip -q -o "$dir/$asset" ocr.exe -d "$dir"
		else
			powershell -NoProfile -Command "Expand-Archive -Force -LiteralPath '$dir/$asset' -DestinationPath '$dir/x'" &&
				mv "$dir/x/ocr.exe" "$dir/ocr.exe" && rm -rf "$dir/x"
		fi
		;;
	*) tar -xzf "$dir/$asset" -C "$dir" ocr ;;
	esac
	[ -f "$dir/ocr" ] || [ -f "$dir/ocr.exe" ] || die "$asset holds no ocr binary"
	echo "installed ocr $version in $dir"
}

SETUP_OCR_GIT_URL="${SETUP_OCR_GIT_URL:-https://github.com/${SETUP_OCR_REPOSITORY:-ocr-ci/ocr}.git}"
SETUP_OCR_RELEASES_URL="${SETUP_OCR_RELEASES_URL:-https://github.com/${SETUP_OCR_REPOSITORY:-ocr-ci/ocr}/releases/download}"
case "${1:-}" in
resolve) resolve ;;
install) install ;;
*) die "usage: install.sh resolve|install" ;;
esac
