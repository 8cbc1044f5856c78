#!/usr/bin/env bash
# Fetch the second held-out set (bench/reading/fresh2/SOURCE.tsv) from Debian's package registry into DIR, with the
# names ground_truth.json uses. The PDFs are not committed; they are documentation files of TeX Live packages.
#   bench/reading/fresh2/fetch.sh /tmp/fresh2 && manage.py evaluate_reading /tmp/fresh2 --json
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mkdir -p "${1:?usage: fetch.sh DIR}" && cd "$1" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download texlive-bibtex-extra=2022.20230122-4 texlive-science-doc=2022.20230122-4 \
  texlive-lang-other=2022.20230122-1 >/dev/null
for deb in *.deb; do dpkg-deb -x "$deb" deb/; done
cp "$here/ground_truth.json" "$out/"
n=0
while IFS=$'\t' read -r name package _version path _rest; do
  case "$package" in
    Debian:*) src="deb$path" ;;
    *) echo "fetch: unexpected package $package" >&2; exit 1 ;;
  esac
  cp "$src" "$out/$name"
  n=$((n + 1))
done < <(tail -n +2 "$here/SOURCE.tsv")
(cd "$out" && sha256sum --quiet -c "$here/SHA256SUMS") && echo "fetch: $n PDFs in $out, checksums match"
