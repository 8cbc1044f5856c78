#!/usr/bin/env bash
# Fetch the eighth held-out set (bench/reading/fresh8/SOURCE.tsv) from Debian's and PyPI's package registries into DIR,
# with the names ground_truth.json uses. The PDFs are not committed: they are documentation shipped in Debian packages
# (texlive-publishers-doc, texlive-lang-chinese, an R vignette) and test files shipped in the pypdf and pikepdf sdists.
#   bench/reading/fresh8/fetch.sh /tmp/fresh8 && manage.py evaluate_reading /tmp/fresh8 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
