"""How well a parse finds a document's printed top-level headings, and whether its passages sit under the right one.

Headings are compared in a loose form (NFKC, lowercase, letters and digits only), which also makes small caps
extracted as "I. I NTRODUCTION" and letter-spaced CJK ("摘 要") equal to what is printed. A printed heading counts as
found when some heading block of the parse has that loose form, whatever its level; the level check is separate:
the printed top-level headings should all sit at one level of the parse's outline.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from apps.documents.parsing import Block, ChunkDraft
from apps.documents.parsing.formats.pdf_heading_numbers import parse_label
from apps.documents.parsing.sections import CANONICAL_NAMES
from apps.documents.parsing.sentences import cjk_count
from apps.documents.parsing.textutil import normalise_for_match


def heading_scores(printed: Sequence[str], blocks: Sequence[Block]) -> dict:
    """{expected, found, same_level, missing}: printed headings found among the heading blocks, and how many of
    those found sit at the level most of them share."""
    # Whole headings first: "参考文献" is the top-level heading, not the subsection "1.7 参考文献" without its number.
    levels: dict[str, int] = {}
    headings = [(loose_keys(b.text), len(b.heading_path)) for b in blocks if b.kind == "heading"]
    for depth in (1, 2):
        for keys, level in headings:
            for key in keys[:depth]:
                levels.setdefault(key, level)
    # One hit per printed heading: a name printed several times (DAFx's seven "MARGIN CHECK" sections) counts as
    # often as it is printed, so found and missing add up to expected.
    hits = [next((levels[k] for k in loose_keys(h) if k in levels), None) for h in printed]
    found = [level for level in hits if level is not None]
    modal = Counter(found).most_common(1)
    same_level = sum(1 for level in found if modal and level == modal[0][0])
    missing = [h for h, level in zip(printed, hits, strict=True) if level is None]
    return {"expected": len(printed), "found": len(found), "same_level": same_level, "missing": missing}


def loose_keys(heading: str) -> list[str]:
    """The heading's loose form, and the same without its section number ("I. INTRODUCTION", "1 Introduction",
    "第一节 重要提示" also as "introduction", "重要提示"): ground truths differ in whether they keep the number."""
    keys = [normalise_for_match(heading)]
    label = parse_label(heading)
    if label is not None and label.title.strip():
        keys.append(normalise_for_match(label.title))
    return [k for k in keys if k]


def expected_sections(printed: Sequence[str], blocks: Sequence[Block]) -> list[str | None]:
    """For each block, the printed top-level heading it falls under (None before the first): each printed heading
    is looked for in reading order as the start of a block, after the previous one found."""
    # A table of contents repeats the headings ahead of them: its entries are not where the sections start.
    keys = [loose_keys(b.text) if b.role != "contents" else [] for b in blocks]
    starts: list[tuple[int, str]] = []
    position = 0
    for heading in printed:
        wanted = loose_keys(heading)
        if not wanted:
            continue
        # A heading block that says it first, else any block starting with it (a heading the parse missed); a
        # paragraph that opens with the same words ("参考文献样式…" in a thesis guide) is not where it starts.
        for headings_only in (True, False):
            hit = next(
                (
                    i
                    for i in range(position, len(blocks))
                    if (blocks[i].kind == "heading" or not headings_only)
                    and any(k.startswith(w) and len(k) <= len(w) + 40 for k in keys[i] for w in wanted)
                ),
                None,
            )
            if hit is not None:
                starts.append((hit, heading))
                position = hit + 1
                break
    out: list[str | None] = []
    current: str | None = None
    pending = list(starts)
    for i in range(len(blocks)):
        while pending and pending[0][0] <= i:
            current = pending.pop(0)[1]
        out.append(current)
    return out


def section_scores(printed: Sequence[str], blocks: Sequence[Block], drafts: Sequence[ChunkDraft]) -> dict:
    """{passages, right}: passages whose heading path (or section) holds the printed heading they fall under;
    before the first printed heading a passage is right when it claims none of them. Contents pages are left out."""
    if not printed:
        return {"passages": 0, "right": 0}
    expected = expected_sections(printed, blocks)
    printed_keys = {k for h in printed for k in loose_keys(h)}
    right = 0
    counted = 0
    for draft in drafts:
        if not draft.blocks or all(blocks[i].role == "contents" for i in draft.blocks):
            continue  # a table of contents sits before the sections it lists and is not read as a passage
        counted += 1
        want = expected[draft.blocks[0]]
        claimed = {k for t in (*draft.heading_path, draft.section) if t for k in loose_keys(t)}
        if want is None:
            right += not (claimed & printed_keys)
        else:
            right += bool(claimed & set(loose_keys(want)))
    return {"passages": counted, "right": right}


def english_names_on_cjk(drafts: Sequence[ChunkDraft]) -> int:
    """Passages shown under an English canonical section name although their own headings are Chinese."""
    count = 0
    for draft in drafts:
        english = draft.section in CANONICAL_NAMES and not cjk_count(draft.section)
        if english and any(cjk_count(h) for h in draft.heading_path[-1:]):
            count += 1
    return count
