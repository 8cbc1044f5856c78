#!/usr/bin/env bash
# Fetch the fifth held-out set (bench/reading/fresh5/SOURCE.tsv) from Debian's and PyPI's package registries into DIR,
# with the names ground_truth.json uses. The PDFs are not committed: they are R package vignettes and TeX Live
# documentation from Debian, and third-party papers shipped as test data in the mmda sdist on PyPI.
#   bench/reading/fresh5/fetch.sh /tmp/fresh5 && manage.py evaluate_reading /tmp/fresh5 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
