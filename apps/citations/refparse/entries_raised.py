"""A raised entry label read from PyMuPDF's spans ("¹R. P. Feynman, …" in AIP/APS/AAPM/Nature lists): the text
layer glues the superscript number to the entry's first word, so the line is rewritten with the number as a label.
"""

from __future__ import annotations

import re
from collections import Counter

_LABEL_DIGITS_RE = re.compile(r"\d{1,3}")
_RAISED = 0.15  # of the text's size: how far above the baseline a superscript's baseline sits at least
_SMALLER = 0.85  # a superscript is set at most this share of the text's size


def line_text(spans: list[dict]) -> str:
    """The line's text, with a raised number that starts it written as a label ("1. R. P. Feynman, …"): the
    text layer glues a superscript label to the first word ("1R. P. Feynman"). A raised number before a
    lower-case word is a footnote or citation mark inside a sentence, and is left as it is."""
    text = "".join(s["text"] for s in spans)
    inked = [s for s in spans if s["text"].strip()]
    if len(inked) < 2 or not _LABEL_DIGITS_RE.fullmatch(inked[0]["text"].strip()):
        return text
    lead, rest = inked[0], inked[1:]
    # The line's baseline and size: those of most of its characters (an accented capital, "¨U", sits higher).
    baseline = Counter()
    size = Counter()
    for span in rest:
        baseline[round(span["origin"][1], 1)] += len(span["text"])
        size[round(span["size"], 1)] += len(span["text"])
    base_y, body_size = baseline.most_common(1)[0][0], size.most_common(1)[0][0]
    first_char = rest[0]["text"].strip()[:1]
    raised = lead["origin"][1] < base_y - _RAISED * body_size
    if raised and lead["size"] <= _SMALLER * body_size and not first_char.islower():
        after = "".join(s["text"] for s in spans[spans.index(lead) + 1 :]).lstrip()
        return f"{lead['text'].strip()}. {after}"
    return text
