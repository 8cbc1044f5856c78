#!/usr/bin/env bash
# Fetch the third held-out set (bench/reading/fresh3/SOURCE.tsv) from Debian's package registry and PyPI into DIR,
# with the names ground_truth.json uses. The PDFs are not committed: they are documentation files of TeX Live
# packages and test inputs of the refextract sdist (two arXiv papers without an open licence).
#   bench/reading/fresh3/fetch.sh /tmp/fresh3 && manage.py evaluate_reading /tmp/fresh3 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
