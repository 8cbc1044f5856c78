#!/usr/bin/env bash
# Fetch the fourth held-out set (bench/reading/fresh4/SOURCE.tsv) from Debian's package registry into DIR, with the
# names ground_truth.json uses. The PDFs are not committed: they are documentation files of TeX Live packages.
#   bench/reading/fresh4/fetch.sh /tmp/fresh4 && manage.py evaluate_reading /tmp/fresh4 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
