#!/usr/bin/env bash
# Installs the ocr release binary for the GitHub Actions runner; action.yml
# runs it in two steps (bash on Linux, macOS and Windows runners):
#
#   install.sh resolve   which release the action's ref means, or "source"
#   install.sh install   download; verify checksums.txt's signature, then
#                        the archive against checksums.txt; extract
#
# resolve reads:
#   SETUP_OCR_VERSION  the action's version input: a release (1.2.3 or
#                      v1.2.3), or empty for the ref of `uses:`
#   SETUP_OCR_REF      github.action_ref: v1.2.3 is that release; v1 or
#                      v1.2 is the release tag on the same commit (else the
#                      newest v1.x.y); anything else (main, a SHA, a local
#                      ./) means build from source
#   SETUP_OCR_VERIFY_SIGNATURE  the verify-signature input: true or false
#   SETUP_OCR_COSIGN   the cosign command (default: cosign on PATH)
#   SETUP_OCR_GIT_URL  where the tags are listed (git ls-remote)
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP
# and writes to $GITHUB_OUTPUT: mode (release|source), version, os, arch,
# asset, dir (the directory actions/cache keeps: the archive only) and
# cosign (found, install: the action runs sigstore/cosign-installer, or
# off: verify-signature is false).
#
# install reads SETUP_OCR_RELEASE, SETUP_OCR_ASSET and SETUP_OCR_DIR (the
# version, asset and dir outputs of resolve), SETUP_OCR_VERIFY_SIGNATURE,
# SETUP_OCR_COSIGN, SETUP_OCR_REPOSITORY and SETUP_OCR_RELEASES_URL
# (…/releases/download), and writes to $GITHUB_OUTPUT ocr, the absolute
# path of the installed binary. What it trusts, in order:
#
#   1. checksums.txt, downloaded afresh, once `cosign verify-blob` accepts
#      its bundle (checksums.txt.sigstore.json) as signed by this
#      repository's release workflow at the tag being installed;
#   2. the archive, taken from the cache directory or downloaded, only when
#      its SHA-256 is the one checksums.txt lists, checked on every run; a
#      cached archive that does not match is reported and downloaded again;
#   3. ocr, extracted from that archive into a new directory that is never
#      cached. Nothing in the cache directory is ever run or put on PATH:
#      the action calls ocr by the path this step writes.
set -euo pipefail

issuer=https://token.actions.githubusercontent.com

die() {
	echo "::error title=ocr install::$*" >&2
	exit 1
}

warn() {
	echo "::warning title=ocr install::$*"
}

# quote PREFIX prints stdin with PREFIX before every line and "##[" broken
# up: another program's output cannot be read as a workflow command.
quote() {
	sed -e "s/^/  $1: /" -e 's/##\[/# #[/g'
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

# verify_flag prints the verify-signature input: true (the default) or false.
verify_flag() {
	case "${SETUP_OCR_VERIFY_SIGNATURE:-true}" in
	true | false) echo "${SETUP_OCR_VERIFY_SIGNATURE:-true}" ;;
	*) die "verify-signature input '$SETUP_OCR_VERIFY_SIGNATURE' is not a boolean: want true (the default) or false" ;;
	esac
}

# cosign_mode VERIFY prints off, found (cosign is on PATH) or install (the
# action runs sigstore/cosign-installer, which has no Windows ARM64 build).
cosign_mode() {
	if [ "$1" = false ]; then
		echo off
	elif command -v "${SETUP_OCR_COSIGN:-cosign}" >/dev/null; then
		echo found
	elif [ "$os/$arch" = windows/arm64 ]; then
		die "cosign is not on PATH and sigstore/cosign-installer has no Windows ARM64 build, so the signature of the ocr release cannot be checked: install cosign in an earlier step (cosign-windows-amd64.exe from https://github.com/sigstore/cosign/releases runs under emulation; put it on PATH as cosign.exe), or use an X64 runner"
	else
		echo install
	fi
}

resolve() {
	platform
	local ref="${SETUP_OCR_REF:-}" version="${SETUP_OCR_VERSION:-}" mode=release verify cosign=""
	verify="$(verify_flag)"
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
		cosign="$(cosign_mode "$verify")"
		echo "ocr $version for $os/$arch: $asset"
	fi
	{
		echo "mode=$mode"
		echo "version=$version"
		echo "os=$os"
		echo "arch=$arch"
		echo "asset=$asset"
		echo "dir=$dir"
		echo "cosign=$cosign"
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

# fetch_sums BASE FILE downloads checksums.txt; a 404 means no such release.
fetch_sums() {
	local status
	status="$(fetch "$1/checksums.txt" "$2")" && return 0
	[ "$status" != 404 ] ||
		die "ocr $version has no release (HTTP 404 for $1/checksums.txt): check the version against the project's releases, or the release is still being published"
	die "cannot download $1/checksums.txt (HTTP ${status:-error}): retry the job"
}

# verify_signature BASE SUMS accepts checksums.txt only when cosign accepts
# its Sigstore bundle as signed by this repository's release workflow at the
# tag being installed: no other workflow, branch or tag, no other issuer.
verify_signature() {
	local bundle="$2.sigstore.json" cosign="${SETUP_OCR_COSIGN:-cosign}" status out
	local identity="https://github.com/$repo/.github/workflows/release.yml@refs/tags/$version"
	status="$(fetch "$1/checksums.txt.sigstore.json" "$bundle")" ||
		die "refusing ocr $version: the signature of its checksums.txt, $1/checksums.txt.sigstore.json, cannot be downloaded (HTTP ${status:-error}); nothing was installed. Re-run the job; if it persists, report it at https://github.com/$repo/issues"
	command -v "$cosign" >/dev/null ||
		die "cosign ('$cosign') is not on PATH, so the signature of ocr $version cannot be checked; nothing was installed. The action installs cosign with sigstore/cosign-installer when the resolve step finds none: install it in an earlier step"
	if ! out="$("$cosign" verify-blob --bundle "$bundle" --certificate-identity "$identity" --certificate-oidc-issuer "$issuer" "$2" 2>&1)"; then
		printf '%s\n' "$out" | quote cosign >&2
		die "refusing ocr $version: the Sigstore signature of checksums.txt does not verify (cosign verify-blob says why, above). It must be signed by $identity (issuer $issuer). Nothing was installed. If cosign's reason is a network error, re-run the job; otherwise the release may have been tampered with: report it at https://github.com/$repo/issues, and do not turn verify-signature off"
	fi
	echo "checksums.txt of ocr $version: Sigstore signature verified ($identity)"
}

# verified_archive BASE CACHE WORK leaves WORK/ASSET with the SHA-256 that
# WORK/checksums.txt lists: a copy of the cached archive when it matches,
# else a download, which then replaces the cached one.
verified_archive() {
	local base=$1 cache=$2 work=$3 want got status
	want="$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1 }' "$work/checksums.txt")"
	[ -n "$want" ] || die "checksums.txt of ocr $version lists no $asset: this platform is not in the release"
	cached_archive "$cache" "$work" "$want" && return 0
	status="$(fetch "$base/$asset" "$work/$asset")" || die "cannot download $base/$asset (HTTP ${status:-error})"
	got="$(sha256 "$work/$asset")"
	if [ "$got" != "$want" ]; then
		rm -f "$work/$asset"
		die "refusing $asset: its SHA-256 is $got but checksums.txt of ocr $version says $want. The download is corrupt or was tampered with; nothing was installed. Re-run the job; if it persists, report it."
	fi
	mkdir -p "$cache"
	cp "$work/$asset" "$cache/$asset"
	echo "downloaded $asset: SHA-256 verified"
}

# cached_archive CACHE WORK WANT copies the cached archive to WORK when it
# is a regular file with the SHA-256 WANT; anything else at its name is
# reported and removed (never followed: a symlink could lead the copy back
# out of the cache), and the caller downloads.
cached_archive() {
	local f="$1/$asset" got why
	if [ -L "$f" ] || { [ -e "$f" ] && [ ! -f "$f" ]; }; then
		why="it is not a regular file (a symlink or a directory)"
	elif [ -f "$f" ]; then
		cp "$f" "$2/$asset"
		got="$(sha256 "$2/$asset")"
		[ "$got" != "$3" ] || { echo "cached $asset: SHA-256 verified"; return 0; }
		why="its SHA-256 is $got but checksums.txt of ocr $version says $3"
		rm -f "$2/$asset"
	else
		return 1
	fi
	warn "discarding the cached $asset: $why. The cache was corrupted or tampered with; downloading the release again. If this repeats, delete the cache entry (Actions → Caches) and find out what writes it"
	rm -rf "$f"
	return 1
}

# extract WORK unpacks ocr (ocr.exe) from WORK/ASSET into WORK/bin.
extract() {
	local work=$1
	mkdir "$work/bin"
	case "$asset" in
	*.zip)
		if command -v unzip >/dev/null; then
			unzip -q "$work/$asset" ocr.exe -d "$work/bin"
		else
			powershell -NoProfile -Command "Expand-Archive -LiteralPath '$work/$asset' -DestinationPath '$work/x'" &&
				mv "$work/x/ocr.exe" "$work/bin/ocr.exe" && rm -rf "$work/x"
		fi
		;;
	*) tar -xzf "$work/$asset" -C "$work/bin" ocr ;;
	esac || die "$asset holds no ocr binary"
	rm -f "$work/$asset"
}

install() {
	local asset="${SETUP_OCR_ASSET:?}" cache bin verify
	version="${SETUP_OCR_RELEASE:?}"
	verify="$(verify_flag)"
	cache="$(unixpath "${SETUP_OCR_DIR:?}")"
	# A new directory per run, never cached: checksums, bundle, binary.
	work="$(mktemp -d "$(unixpath "${RUNNER_TEMP:-${TMPDIR:-/tmp}}")/ocr-bin.XXXXXX")"
	trap 'rm -rf "${work:?}"' EXIT
	local base="${SETUP_OCR_RELEASES_URL:?}/$version"
	fetch_sums "$base" "$work/checksums.txt"
	if [ "$verify" = true ]; then
		verify_signature "$base" "$work/checksums.txt"
	else
		warn "verify-signature is false: the Sigstore signature of checksums.txt of ocr $version was NOT checked, so whoever can replace the files of the release can replace the ocr that runs with this job's tokens. Remove verify-signature: false as soon as the runner can reach Sigstore (docs/security.md)"
	fi
	verified_archive "$base" "$cache" "$work"
	extract "$work"
	bin="$work/bin/ocr"
	[ -f "$bin" ] || bin="$bin.exe"
	trap - EXIT
	echo "ocr=$bin" >>"${GITHUB_OUTPUT:-/dev/stdout}"
	echo "installed ocr $version: $bin"
}

repo="${SETUP_OCR_REPOSITORY:-ocr-ci/ocr}"
SETUP_OCR_GIT_URL="${SETUP_OCR_GIT_URL:-https://github.com/$repo.git}"
SETUP_OCR_RELEASES_URL="${SETUP_OCR_RELEASES_URL:-https://github.com/$repo/releases/download}"
version="" work=""
case "${1:-}" in
resolve) resolve ;;
install) install ;;
*) die "usage: install.sh resolve|install" ;;
esac
