#!/bin/sh
# A stand-in for `cosign verify-blob` in the install tests (no network, no
# Sigstore). It appends its arguments, one per line and then "--", to
# cosign.log next to itself, and accepts only
#
#   verify-blob --bundle B --certificate-identity I --certificate-oidc-issuer O BLOB
#
# A fake bundle (release_test.go, sign) is the SHA-256 of the signed blob on
# its first line, the issuer on its second and the signer's identity after.
# Like cosign, it fails when the blob is not the signed one, and when the
# signer or issuer is not the expected one, printing the certificate's
# subject as cosign does (attacker-controlled text).
set -u
log="$(dirname "$0")/cosign.log"
printf '%s\n' "$@" -- >>"$log"
if [ "${1:-}" != verify-blob ]; then
	echo "Error: unknown command \"${1:-}\" for \"cosign\"" >&2
	exit 1
fi
shift
bundle="" identity="" issuer="" blob=""
while [ $# -gt 0 ]; do
	case "$1" in
	--bundle | --certificate-identity | --certificate-oidc-issuer)
		[ $# -ge 2 ] || { echo "Error: flag needs an argument: $1" >&2; exit 1; }
		case "$1" in
		--bundle) bundle=$2 ;;
		--certificate-identity) identity=$2 ;;
		--certificate-oidc-issuer) issuer=$2 ;;
		esac
		shift 2
		;;
	-*)
		echo "Error: unknown flag: $1" >&2
		exit 1
		;;
	*)
		[ -z "$blob" ] || { echo "Error: accepts 1 arg(s), received 2" >&2; exit 1; }
		blob=$1
		shift
		;;
	esac
done
if [ -z "$bundle" ] || [ -z "$identity" ] || [ -z "$issuer" ] || [ -z "$blob" ]; then
	echo "Error: want --bundle, --certificate-identity, --certificate-oidc-issuer and a blob" >&2
	exit 1
fi
if [ ! -f "$bundle" ]; then
	echo "Error: open $bundle: no such file or directory" >&2
	exit 1
fi
signed="$(sed -n 1p "$bundle")"
by_issuer="$(sed -n 2p "$bundle")"
by="$(sed -n '3,$p' "$bundle")"
if [ "$signed" != "$(sha256sum "$blob" | cut -d' ' -f1)" ]; then
	echo "Error: error verifying bundle: verifying signature: invalid signature when validating ASN.1 encoded signature" >&2
	exit 1
fi
if [ "$by" != "$identity" ] || [ "$by_issuer" != "$issuer" ]; then
	echo "Error: none of the expected identities matched what was in the certificate, got subjects [$by] with issuer $by_issuer" >&2
	exit 1
fi
echo "Verified OK" >&2
