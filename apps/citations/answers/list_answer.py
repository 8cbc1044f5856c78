"""A list question's answer written out (issue 15): which list in the evidence answers the question, and how it
reads — its lead-in, then each item's head on its own line, each line with the evidence number of the chunk it is
in. Also the two ways an answer reaches a list without having asked for one: the best sentence is a list's
lead-in (`lead_in_list`), or a follow-up asks for what the answer before announced (`asks_for_what_was_announced`).
"""

from __future__ import annotations

import math
import re
import unicodedata

from apps.citations.answers import support
from apps.citations.answers.claims import without_source_markers
from apps.citations.answers.list_enumerators import label_only
from apps.citations.answers.list_sections import names_section
from apps.citations.answers.lists import ListBlock, enumerator_at, find_lists
from apps.citations.answers.markers import with_marker
from apps.citations.answers.question import Question, key_coverage
from apps.citations.answers.types import ComposeRequest, Evidence
from apps.documents.parsing.sentences import is_list_item, split_sentences

LIST_ITEMS = 30  # at most this many items written: a longer run is a table or an index, read at its source

# An answer that stopped at a list's lead-in ("… the following assumptions:", "包括以下14个安全要素：").
_LEAD_IN = re.compile(
    r"(?:\bfollowing\b|\bas follows\b|以下|如下)[^.。]*[:：]?\s*(?:\[\d+\])?\s*[.。]?\s*$|[:：]\s*(?:\[\d+\])?\s*$",
    re.I,
)


def marked(sentence: str, number: int) -> str:
    """The sentence with evidence `number`'s marker before its closing punctuation ("… fractures [2].")."""
    return with_marker(sentence, f"[{number}]")


def marked_each(text: str, number: int) -> str:
    """`text` with evidence `number`'s marker on every sentence the support check will read in it: an item that
    holds a "；" or a second sentence is two claims there, and the first would otherwise go unmarked (and, strict,
    be dropped: "- 服务器 通过`hanlp serve`…8765 ；也可以访问…。" lost its command)."""
    pieces = support.split_sentences(text)
    if len(pieces) < 2:
        return marked(text, number)
    out, cursor = [], 0
    for piece in pieces:
        at = text.find(piece, cursor)
        if at < 0:
            return marked(text, number)
        out += [text[cursor:at], marked(piece, number)]
        cursor = at + len(piece)
    return "".join([*out, text[cursor:]])


def best_list(
    question: Question, evidence: list[Evidence], threshold: float, context_share: float, steps: bool = False
) -> ListBlock | None:
    """The list whose lead-in (or items, or the heading of the section it is in, or the lines just before a list
    without a lead-in) best covers the question's key terms, if that coverage reaches `threshold`; the items' own
    terms count `context_share`. With `steps`, only counted lists ("1）…", "Step 2: …"): a procedure."""
    weights = noise_weights(question, evidence)
    rarity = rarity_weights(question, evidence, weights)
    covering: list[tuple[float, float, ListBlock]] = []
    for block in find_lists(evidence):
        if not block.items or (steps and not _counted(block)):
            continue
        # When the question names the list's own section ("the Features section of the Introduction to Celery"),
        # every heading above the list names it too; otherwise the nearest only (a paper's title over every section
        # would make any list cover a question about the paper).
        named_here = bool(block.heading) and names_section(question.text, block.heading)
        coverage = _coverage(question, block, block.sections if named_here else block.heading, weights, context_share)
        if coverage >= threshold:
            covering.append((coverage, _coverage(question, block, block.sections, rarity, context_share), block))
    # The list that covers most of the question, unless another holds its rarer terms decisively better, in every
    # heading above it too: of a change log's "Bugfixes" lists, the one under the release the question names
    # ("2.32.3" is in one chunk, "bugfix" in twenty). (Only to rank: a paper's title over every section covers
    # nothing, so the headings above the nearest do not count towards the threshold.)
    best = None
    for coverage, rare, block in sorted(covering, key=lambda c: -c[0]):
        if best is None or rare >= RARER * best[1]:
            best = (coverage, rare, block)
    return best[2] if best else None


def _coverage(
    question: Question, block: ListBlock, heading: str, weights: dict[str, float], context_share: float
) -> float:
    """How much of the question the list covers: its lead-in, or the lead-in with the heading and the lines that
    name it ("常见问题" over a run of numbered questions), or its items too (an untitled numbered run)."""
    head = block.lead or block.items[0][1]
    named = f"{heading} {block.context} {head}"
    lead = max(key_coverage(question, head, weights), key_coverage(question, named, weights))
    items = " ".join(text for _, text in block.items)
    return max(lead, context_share * key_coverage(question, items, weights) + (1 - context_share) * lead)


# How much more of the rare terms' weight (rarity_weights) a list must hold to outrank one that covers more terms.
RARER = 1.25


def rarity_weights(question: Question, evidence: list[Evidence], weights: dict[str, float]) -> dict[str, float]:
    """Each key term weighed by how few evidence passages (their text and section headings) hold it, an inverse
    document frequency within the evidence: a term every passage holds tells its lists apart from none."""
    texts = [
        unicodedata.normalize("NFKC", f"{' '.join(e.hit.heading_path or [])} {e.hit.text}").casefold() for e in evidence
    ]
    rarity = {}
    for term in question.key_terms:
        holding = sum(term in text for text in texts)
        rarity[term] = weights.get(term, 1.0) * math.log((len(texts) + 1) / (holding + 0.5))
    return rarity


def _counted(block: ListBlock) -> bool:
    """Every item opens with a counter (not a bullet, not a clause after a colon): steps in their order."""
    for _, text in block.items:
        enumerator = enumerator_at(text)
        if enumerator is None or enumerator.bullet:
            return False
    return len(block.items) >= 2


def noise_weights(question: Question, evidence: list[Evidence]) -> dict[str, float]:
    """Weight 0 for the question's bigrams across jieba's words ("文模" of 论文|模板, "板插" of 模板|插入) that no
    evidence passage holds: noise, which would count against every list alike (a list's coverage of
    "用这个学位论文模板插入表格时要用到哪些命令" was 0.21 with them and is 0.43 without)."""
    if not question.joins:
        return {}
    texts = [unicodedata.normalize("NFKC", e.hit.text).casefold() for e in evidence]
    return {term: 0.0 for term in question.joins if not any(term in text for text in texts)}


def written_list(block: ListBlock) -> str:
    """A list as answer lines. A lead-in that is the start of a sentence its items finish ("we filter out PDFs
    that (i) …, (ii) …") is no claim of its own: the whole sentence is the one line. Otherwise the lead-in, then
    each item's first sentence (an item's head: "• Domain: Beltagy et al. (2019) report …" without the paragraph
    under it), each on its own line with its evidence number."""
    if block.fragment:
        return marked(" ".join(without_source_markers(block.fragment).split()), block.number)
    lines = [marked(block.lead, block.number)] if block.lead else []
    for number, text in block.items[:LIST_ITEMS]:
        if label_only(text):
            continue  # "示例2:" whose text is in a chunk the evidence does not hold: a label says nothing
        text = _head_sentence(" ".join(without_source_markers(text).split()))
        lines.append(marked_each(text if is_list_item(text) else f"- {text}", number))
    return "\n".join(lines)


def _head_sentence(item: str) -> str:
    """An item's first sentence, verbatim, when the item has more and the first says more than its enumerator
    ("1). 如何删除日期？" stays whole)."""
    pieces = split_sentences(item)
    if len(pieces) < 2:
        return item
    enumerator = enumerator_at(pieces[0])
    if enumerator is None or not any(c.isalnum() for c in pieces[0][enumerator.end :]):
        return item
    # The splitter collapses whitespace (and closes up CJK line breaks): cut the item where that sentence ends.
    wanted = [c for c in pieces[0] if not c.isspace()]
    for end, char in enumerate(item, start=1):
        if not char.isspace() and char == wanted[0]:
            wanted.pop(0)
            if not wanted:
                return item[:end].rstrip()
    return item


def lead_in_list(sentence: str, number: int, evidence: list[Evidence]) -> str:
    """The list that `sentence` (evidence `number`) announces, written as a list answer; "" when it is not a
    lead-in of a list with items. A lead-in alone answers nothing ("… face the following: [1]"), whatever kind
    of question chose it."""
    wanted = " ".join(without_source_markers(sentence).split())
    if not wanted:
        return ""
    for block in find_lists(evidence):
        lead = " ".join(without_source_markers(block.lead).split())
        if block.number == number and block.items and lead and (lead.endswith(wanted) or wanted.endswith(lead)):
            return written_list(block)
    return ""


def asks_for_what_was_announced(request: ComposeRequest, question: Question) -> bool:
    """A follow-up ("What are they?", "分别是什么") to an answer that announced a list without giving it."""
    if not request.history:
        return False
    earlier_answer = request.history[-1][1].strip()
    return bool(_LEAD_IN.search(earlier_answer)) and len(question.key_terms) <= 3
