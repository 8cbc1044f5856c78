#!/usr/bin/env bash
# Fetch the seventh held-out set (bench/reading/fresh7/SOURCE.tsv) from Debian's and PyPI's package registries into DIR,
# with the names ground_truth.json uses. The PDFs are not committed: they are documentation shipped in Debian packages
# (texlive-publishers-doc, R vignettes) and a test page shipped in the paper-qa sdist.
#   bench/reading/fresh7/fetch.sh /tmp/fresh7 && manage.py evaluate_reading /tmp/fresh7 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
