#!/usr/bin/env bash
# Fetch the tenth held-out set (bench/reading/fresh10/SOURCE.tsv) from Debian's package registry into DIR, with the
# names ground_truth.json uses. The PDFs are not committed: they are documentation shipped in two Debian packages
# (texlive-publishers-doc: eleven class manuals, samples and templates; texlive-lang-chinese: two Chinese books).
#   bench/reading/fresh10/fetch.sh /tmp/fresh10 && manage.py evaluate_reading /tmp/fresh10 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
