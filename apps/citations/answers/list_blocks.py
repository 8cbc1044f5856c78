"""Lists in a stream of lines (issue 15): a lead-in and its items, or a run of items, across the consecutive chunks
of one document.

A list is a lead-in followed by at least one item, or a run of at least two items without one. Counters must count
up (a sub-list may open under an item); an item that announces a body (it ends with ":" or "?") may be followed by
that body, also in the next chunk, before the next item. Between two items of a counted list, a few lines that are
not items may stand (a footnote or a running head at a page break, "11 This does not mean …" between "2. …;" and
"3."): the list goes on when the item before ends as a running enumeration does (";", ",", "and") and the next
item follows within GAP_LINES. A list ends at its chunk's section heading, at a
line that is none of these, or at an item that does not go on with it.

Item text is verbatim from the chunk, enumerator kept ("a) 物理安全；", "1. Water flows downhill."), so the support
check and the viewer find it in the chunk; the one exception is an item a PDF cut into two paragraphs (its second
line starts in lower case), joined again with one space where the chunk has a paragraph break.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from apps.citations.answers.list_enumerators import CLAUSE_END, SENTENCE_END, label_only
from apps.citations.answers.list_lines import Line, first_sentence, is_label, is_lead_in, last_sentence, lines_of
from apps.citations.answers.types import Evidence


@dataclass
class ListBlock:
    number: int  # evidence number of the chunk holding the lead-in (or the first item when there is no lead-in)
    lead: str  # the lead-in sentence verbatim from the chunk ("… the following assumptions:"); "" when none
    # (evidence number, item text) in order; the text is verbatim from that chunk, enumerator ("1.", "a)", "•") kept.
    items: list[tuple[int, str]] = field(default_factory=list)
    heading: str = field(
        default="", compare=False
    )  # the section heading of the chunk the list starts in: it names an untitled list ("常见问题")
    # The headings of every section that chunk is in, outermost first ("Release History 2.32.3 (2024-05-29)"), which
    # tell apart lists of one name ("Bugfixes" under every release).
    sections: str = field(default="", compare=False)
    # The short lines just before the list or its lead-in (a heading the chunker did not see, "多位著者 | 8.1.2 |
    # 作者姓名示例" over "示例1: …", a caption "Algorithm 1 …"), which name what it lists as a heading does.
    context: str = field(default="", compare=False)
    # The lead-in is the start of a sentence its items finish ("we filter out PDFs that (i) …, (ii) …"): the whole
    # sentence, lead-in and items as written, is the list's claim.
    fragment: str = field(default="", compare=False)


@dataclass
class Found:
    block: ListBlock
    open_at_end: bool  # the list (or its lead-in) is the stream's last line: it may go on in the next chunk


def _continuation(previous: Line, line: Line) -> bool:
    """A line that carries on the item before it (a PDF starts a new paragraph after an item's first line, or at a
    page break): no enumerator, the item had no sentence end, and the line starts in lower case."""
    return (
        previous.enumerator is not None
        and line.enumerator is None
        and not line.heading
        and not previous.text.endswith(tuple(SENTENCE_END))
        and line.text[:1].islower()
    )


def _joins(items: list[Line], line: Line, crosses: bool) -> bool:
    """The item goes on with the list: the same bullet, or the next counter of one of its styles ("3." after "2.",
    "c)" after "b)"), or, inside one chunk, a sub-list opening under the item before ("a." after "2.", "•" after
    "1."). So figure panels "(c) (b) (a)", the numbered heading that opens the next chunk, or "B. Methods" after
    "(iii)" end a list."""
    enumerator = line.enumerator
    assert enumerator is not None
    if not items:
        return True
    styles = {s for s, _ in enumerator.styles}
    for item in reversed(items):
        shared = styles & {s for s, _ in item.enumerator.styles}
        if shared:
            if any(s.startswith("bullet") for s in shared) or enumerator.continues(item.enumerator):
                return True
            break
    if crosses or styles & {s for s, _ in items[-1].enumerator.styles}:
        return False
    return enumerator.first or any(s.startswith("bullet") for s in styles)


BODY_LINES = 6  # at most this many body lines under one item
# At most this many lines that are not items between two counters of one list (3. after 2.): a footnote, a running
# head and a folio at a page break. (Read off page breaks of lncs_aitkaci_pl_design_architecture.pdf, a file of no
# benchmark: one to two such lines; a separate list would restart its count, so only counting up continues.)
GAP_LINES = 3
_GOES_ON = re.compile(r"(?:[;,；，、]|\b(?:and|or)|[和或及])\s*$")


def _after_body(lines: list[Line], j: int, items: list[Line]) -> int | None:
    """Items with bodies ("1). 如何删除日期？" then its answer, "• Preprocessing:" then a paragraph): where the next
    item of the list is, when the last item announces a body (it ends with a colon or a question mark) and the
    next item (the next counter of its style, or the same bullet) follows within BODY_LINES lines; len(lines)
    when the stream ends inside the body (the next chunk may hold the next item); None otherwise.
    Numbered headings with their sections ("I. INTRODUCTION" … "II. RELATED WORK") announce nothing: no list."""
    last = items[-1]
    headed = _headed(items, j, lines)
    if not (last.text.endswith((":", "：", "?", "？")) or headed):
        return None
    body_lines = HEADED_BODY_LINES if headed else BODY_LINES
    for k in range(j, min(j + body_lines, len(lines))):
        if lines[k].heading:
            return None
        following = lines[k].enumerator
        if following is None:
            continue
        same_bullet = {s for s, _ in following.styles if s.startswith("bullet")} & {
            s for s, _ in last.enumerator.styles
        }
        goes_on = following.continues(last.enumerator) or same_bullet
        # Names over paragraphs go on with another name, not with a sentence item of a list after the paragraph.
        return k if goes_on and (not headed or is_head(lines[k])) else None
    return len(lines) if len(lines) - j < body_lines else None


# A bulleted item that is only a name ("- **Monitoring**", "• Item Pipeline") stands over its own paragraphs in a
# definition-like list (a feature, then what it does); its head is a few words with no sentence end.
HEAD_CHARS = 60
HEAD_WORDS = 6
# Such a body may hold a short example (Celery's "Simple": three paragraphs, a code-block directive, three lines).
HEADED_BODY_LINES = 9


def is_head(line: Line) -> bool:
    """The item is a bulleted name, not a sentence or a clause: short, few words, no closing punctuation. (A
    counted name over paragraphs is a numbered heading with its section, "I. INTRODUCTION": no list.)"""
    assert line.enumerator is not None
    if not line.enumerator.bullet:
        return False
    text = line.text[line.enumerator.end :].strip().strip("*_`")
    return (
        0 < len(text) <= HEAD_CHARS
        and len(text.split()) <= HEAD_WORDS
        and not text.endswith(tuple(CLAUSE_END + SENTENCE_END))
        and any(c.isalnum() for c in text)
    )


def _names_so_far(items: list[Line]) -> bool:
    """Every item is a name, and every one before the last had paragraphs under it (not the next item at once:
    "- apples" "- pears" then a paragraph is a list that ended)."""
    return all(is_head(item) for item in items) and all(item.has_body for item in items[:-1])


def _ends_names(items: list[Line], line: Line) -> bool:
    """A list of names over paragraphs ends at an item that is no name: "- **Flexible**" … then "- **Brokers**" and
    "- RabbitMQ, Redis" of a nested list the reader flattened are no more of it."""
    return len(items) >= 2 and _names_so_far(items) and not is_head(line)


def _headed(items: list[Line], j: int, lines: list[Line]) -> bool:
    """The list is one of names over paragraphs and `lines[j]`, after its last item, is no item: that item's body.
    A first item followed by a line that is no item opens such a list."""
    return _names_so_far(items) and lines[j].enumerator is None


def _after_gap(lines: list[Line], j: int, items: list[Line]) -> int | None:
    """Where the list's next item is when up to GAP_LINES lines that are not items (nor a heading) stand between
    it and the last item, and the last item says that more follow: it ends with a separator of a running
    enumeration ("…;", "…,", "… and", "…；"), as no heading and no closing item does. The next item must go on
    with the list: the next counter, or the same bullet. None otherwise."""
    last = items[-1]
    if not _GOES_ON.search(last.text):
        return None
    bullets = {s for s, _ in last.enumerator.styles if s.startswith("bullet")}
    for k in range(j, min(j + GAP_LINES + 1, len(lines))):
        if lines[k].heading:
            return None
        following = lines[k].enumerator
        if following is not None:
            same_bullet = bullets & {s for s, _ in following.styles}
            return k if following.continues(last.enumerator) or same_bullet else None
    return None


def _announces_a_sub_list(lines: list[Line], i: int) -> bool:
    """`lines[i]` is an item that ends by announcing a list ("a. Epistemic status. We distinguish three levels:")
    and the next line opens a list of another style ("(i) …"), which does not join it (it starts in the next chunk,
    where no sub-list is read under an item): the item's last sentence is that list's lead-in."""
    line, following = lines[i], lines[i + 1] if i + 1 < len(lines) else None
    return (
        line.enumerator is not None
        and is_lead_in(line.text)
        and following is not None
        and following.enumerator is not None
        and following.enumerator.first
        and not {s for s, _ in following.enumerator.styles} & {s for s, _ in line.enumerator.styles}
        and not _joins([line], following, line.number != following.number)
    )


def scan(lines: list[Line]) -> list[Found]:
    found: list[Found] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        lead = (
            line
            if not line.heading
            and (
                (line.enumerator is None and (line.introduces or is_lead_in(line.text)))
                or _announces_a_sub_list(lines, i)
            )
            else None
        )
        j, items = (i + 1 if lead else i), []
        while j < len(lines):
            current = lines[j]
            previous = items[-1] if items else lead
            crosses = previous is not None and previous.number != current.number
            if current.heading:
                break
            if current.enumerator is not None and _joins(items, current, crosses) and not _ends_names(items, current):
                items.append(current)
            elif items and label_only(items[-1].text):
                # "示例2:" | its text; when the text is in the next chunk, the item is that text, cited there
                items[-1] = replace(
                    items[-1] if not crosses else current,
                    text=current.text if crosses else f"{items[-1].text} {current.text}",
                    enumerator=items[-1].enumerator,
                )
            elif items and _continuation(items[-1], current):
                if not crosses:  # within one chunk the item is whole again (one space for the break)
                    items[-1] = replace(items[-1], text=f"{items[-1].text} {current.text}")
            elif items and (after := _after_body(lines, j, items)) is not None:
                # A name says little alone ("- **Fast**"): its body's first sentence says what it is (cited with
                # the item, so only in the item's own chunk).
                gloss = first_sentence(current.text) if is_head(items[-1]) and not crosses else ""
                items[-1] = replace(items[-1], gloss=items[-1].gloss or gloss, has_body=True)
                j = after  # the item's own body paragraphs; the list goes on with its next item
                continue
            elif items and (after := _after_gap(lines, j, items)) is not None:
                j = after  # page furniture between two items of a counted list
                continue
            else:
                break
            j += 1
        open_at_end = j == len(lines) and (lead is not None or bool(items))
        pairs = [(item.number, f"{item.text} {item.gloss}" if item.gloss else item.text) for item in items]
        if lead is not None and items and (is_label(lead.text) or _heads_steps(lead, items)):
            # "注：" / "Note:" over its items, an algorithm's "Input … Output …" over its numbered steps: the text
            # names the list, it is not a claim.
            context = " ".join(filter(None, [_context(lines, i), lead.text]))
            found.append(Found(ListBlock(items[0].number, "", pairs, context=context), open_at_end))
            i = max(j, i + 1)
        elif lead is not None and (items or open_at_end):
            fragment = ""
            if lead.introduces and not is_lead_in(lead.text) and items and all(n == lead.number for n, _ in pairs):
                fragment = " ".join([last_sentence(lead.text), *(text for _, text in pairs)])
            block = ListBlock(
                lead.number, last_sentence(lead.text), pairs, context=_context(lines, i), fragment=fragment
            )
            found.append(Found(block, open_at_end))
            i = max(j, i + 1)
        elif lead is None and (len(items) >= 2 or (items and open_at_end)):
            # The sentence before introduces a list that starts there: a bulleted one or one counted from its first
            # ("III. PROBLEM BACKGROUND" | "A. Reinforcement Learning" are headings a paragraph ends before).
            opens = items[0].enumerator.bullet or items[0].enumerator.first
            context = _context(lines, i, introduced=opens)
            found.append(Found(ListBlock(items[0].number, "", pairs, context=context), open_at_end))
            i = j
        else:
            i += 1
    return found


def _heads_steps(lead: Line, items: list[Line]) -> bool:
    """The text before pseudo-code's numbered steps on their line ("Input G … Output S-RNN graph 1: … 2: …"): no
    lead-in, and the steps do not finish its sentence, as "(i) …, (ii) …" finish "we filter out PDFs that"."""
    return (
        lead.introduces
        and not is_lead_in(lead.text)
        and all(any(s == "line-number" for s, _ in item.enumerator.styles) for item in items)
    )


CONTEXT_LINES = 3  # lines before a list (or its lead-in) that may name it
# A line that names a list is short, as a heading or a caption is ("Algorithm 1 From spatio-temporal graph to
# S-RNN"): not a paragraph.
CONTEXT_CHARS = 80
_LISTING = re.compile(r"[,，;；:：、]")  # nor a keyword line ("Keywords: pain, domains"): a heading lists nothing


def _context(lines: list[Line], start: int, introduced: bool = False) -> str:
    """The up to CONTEXT_LINES short lines before `lines[start]` that are not items, end no sentence and list
    nothing (headings the chunker did not see, a caption over an algorithm's steps), nearest last; also at the end
    of the chunk before (the stream is consecutive chunks), not across its section heading. With `introduced` (a
    list without a lead-in), the sentence right before the list counts too: it introduces it as a lead-in would,
    without announcing it ("The needs of today's cats have changed little from those of … the African wildcat."
    over "• Cats are solitary hunters …")."""
    before: list[str] = []
    for k, line in enumerate(reversed(lines[max(0, start - CONTEXT_LINES) : start])):
        if line.enumerator is not None or line.heading:
            break
        if k == 0 and introduced and line.text.endswith(tuple(SENTENCE_END)):
            before.insert(0, last_sentence(line.text))
            continue
        if len(line.text) > CONTEXT_CHARS or line.text.endswith(tuple(CLAUSE_END)) or _LISTING.search(line.text):
            break
        before.insert(0, line.text)
    return " ".join(before)


def runs_of(evidence: Sequence[Evidence]) -> list[list[Evidence]]:
    """The evidence grouped into runs of consecutive chunks of one document, in chunk order."""
    by_document: dict[int, list[Evidence]] = {}
    for e in evidence:
        by_document.setdefault(e.hit.document_id, []).append(e)
    runs: list[list[Evidence]] = []
    for items in by_document.values():
        seen: set[int] = set()
        for e in sorted(items, key=lambda e: e.hit.chunk_index):
            if e.hit.chunk_index in seen:
                continue  # the same chunk twice: read it once
            seen.add(e.hit.chunk_index)
            if (
                runs
                and runs[-1][-1].hit.document_id == e.hit.document_id
                and (runs[-1][-1].hit.chunk_index + 1 == e.hit.chunk_index)
            ):
                runs[-1].append(e)
            else:
                runs.append([e])
    return runs


def heading_of(hit) -> str:
    """The heading of the section a chunk is in (its last heading, else its section name)."""
    return (hit.heading_path[-1] if hit.heading_path else "") or hit.section or ""


def sections_of(hit) -> str:
    """The headings of every section a chunk is in, outermost first ("Release History 2.32.3 (2024-05-29)"): they
    all name its lists, not only the nearest ("Bugfixes" stands under every release of a change log)."""
    return " ".join(hit.heading_path) if hit.heading_path else hit.section or ""


def stream_of(run: Iterable[Evidence]) -> list[Line]:
    return [line for e in run for line in lines_of(e.number, e.hit.text, heading_of(e.hit))]


def find_lists(evidence: Sequence[Evidence]) -> list[ListBlock]:
    """Every list in the evidence with at least one item, items joined across consecutive chunks of one document;
    ordered by the evidence number of the chunk each list starts in, then by place."""
    hits = {e.number: e.hit for e in evidence}

    def named(block: ListBlock) -> ListBlock:
        hit = hits.get(block.number)
        return replace(block, heading=heading_of(hit), sections=sections_of(hit)) if hit is not None else block

    blocks = [
        named(f.block)
        for run in runs_of(evidence)
        for f in scan(stream_of(run))
        if f.block.items and (f.block.lead or len(f.block.items) >= 2)
    ]
    return sorted(blocks, key=lambda b: b.number)  # stable: lists of one chunk keep their order
