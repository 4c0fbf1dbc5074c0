#!/usr/bin/env bash
# validate-sarif.sh FILE... — validate SARIF logs with Microsoft's SARIF
# multitool, using its SARIF and GitHub rule sets (--rule-kind "Gh;Sarif").
# Exits 1 when any file has an error-level finding (or a warning with
# STRICT=1); the multitool itself always exits 0, so its output is parsed.
#
# The multitool is fetched with `npm pack @microsoft/sarif-multitool-linux`
# (SARIF_MULTITOOL_VERSION, default 5.7.0) into $SARIF_MULTITOOL_DIR (default
# ~/.cache/ocr/sarif-multitool) unless SARIF_MULTITOOL points at a binary.
# It is a .NET program: without libicu it runs in invariant-globalisation mode.
set -euo pipefail

if [ "$#" -eq 0 ]; then
	echo "usage: $0 FILE.sarif..." >&2
	exit 2
fi

version="${SARIF_MULTITOOL_VERSION:-5.7.0}"
dir="${SARIF_MULTITOOL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ocr/sarif-multitool-$version}"
tool="${SARIF_MULTITOOL:-}"

if [ -z "$tool" ]; then
	tool="$(find "$dir" -type f -name Sarif.Multitool 2>/dev/null | head -n1 || true)"
fi
if [ -z "$tool" ]; then
	command -v npm >/dev/null || { echo "validate-sarif: npm is needed to fetch the SARIF multitool" >&2; exit 2; }
	mkdir -p "$dir"
	(cd "$dir" && npm pack --silent "@microsoft/sarif-multitool-linux@$version" >/dev/null && tar -xzf ./*.tgz)
	tool="$(find "$dir" -type f -name Sarif.Multitool | head -n1)"
	[ -n "$tool" ] || { echo "validate-sarif: Sarif.Multitool not found in the npm package" >&2; exit 2; }
	chmod +x "$tool"
fi

if ! ldconfig -p 2>/dev/null | grep -q libicu; then
	export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
fi

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
"$tool" validate --rule-kind "Gh;Sarif" --level "Error;Warning;Note" "$@" >"$out" 2>&1 || true
cat "$out"

errors="$(grep -cE ': error [A-Z]+[0-9]+' "$out" || true)"
warnings="$(grep -cE ': warning [A-Z]+[0-9]+' "$out" || true)"
notes="$(grep -cE ': note [A-Z]+[0-9]+' "$out" || true)"
echo "validate-sarif: $# file(s): $errors error(s), $warnings warning(s), $notes note(s)"
if ! grep -q 'Analysis completed successfully' "$out"; then
	echo "validate-sarif: the multitool did not complete" >&2
	exit 1
fi
if [ "$errors" -gt 0 ] || { [ "${STRICT:-0}" = 1 ] && [ "$warnings" -gt 0 ]; }; then
	exit 1
fi
