"""The default composer: an answer made only of evidence sentences, each followed by its [n].

No model writes anything, so no claim can appear that the evidence does not make. The work is choosing:

1. every sentence of every evidence chunk is a candidate, unless it is not a claim (a heading, a title, a keyword
   line, front matter, a fragment: answers.claims) or is very short or very long;
2. the question is read first (answers.question): its kind (a number, a date, a person, … a list, how/why) and
   its key terms. A sentence can answer it only when it holds an item of the asked kind and enough of the key
   terms (question.can_answer; a term found only in the sentence before it or the title counts half: "Its
   population grew to 600" answers a question about lions in a passage about lions);
3. when no sentence can answer, nothing is written: the documents do not answer the question;
4. among those that can, each is scored by its (idf-weighted) key-term coverage and the embedding model's
   similarity to the question, with a small preference for better-ranked evidence, and sentences in the
   question's language are preferred when they are good enough ("where the evidence allows");
5. the kind decides the answer's shape: a factoid leads with the best answering sentence and adds at most one
   more that also answers; how/why/definition give the best sentence and the one or two that follow it in its
   passage (an explanation runs on); a list gives the list's lead-in and every item on its own line, each cited
   (answers.lists), or, when the list is written inside a sentence, that sentence first (a question asks for a
   list by its cues or, in English, by a plural noun: answers.list_questions); anything else gives the best few
   sentences;
6. near-duplicates are dropped, and a sentence that says the opposite of a chosen one about the same thing
   (negation, or the opposite direction of change) is listed apart as a conflicting source;
7. the best sentence leads; the others are grouped by their chunk (best group first) and kept in document order
   inside a group, which reads better than a list ordered by score (a factoid answer keeps the score order).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from apps.citations.answers import similarity, statements
from apps.citations.answers.claims import non_claim_reason, without_source_markers
from apps.citations.answers.conflicts import disagree
from apps.citations.answers.language import detect
from apps.citations.answers.list_answer import (
    asks_for_what_was_announced,
    best_list,
    lead_in_list,
    marked,
    written_list,
)
from apps.citations.answers.list_questions import asks_for_several, enumerates
from apps.citations.answers.list_sections import outline_list
from apps.citations.answers.list_tables import names_a_table, table_lists
from apps.citations.answers.lists import is_lead_in
from apps.citations.answers.question import (
    EXPLAIN_KINDS,
    FACTOID_KINDS,
    KEY_COVERAGE,
    Question,
    anchors_found,
    classify,
    holds_kind,
    key_coverage,
    new_items,
)
from apps.citations.answers.question_items import holds_unit
from apps.citations.answers.types import ComposeRequest, Conflict, Evidence
from apps.documents.parsing.passage_text import sentences, without_heading, without_label
from apps.retrieval.search.service import query_embedder

MIN_CHARS, MAX_CHARS = 25, 600
# Was 12 (MIN_CHARS // 2): CMRC TUNE answers such as "体长可达10公分。" were never candidates. (Composer-only loop,
# 300 TUNE questions: first claim holds the answer 0.760 → 0.763, factoid 0.814 → 0.821, abstention 0.901 kept.)
MIN_CHARS_CJK = 8
MIN_TERMS = 4  # fewer distinct content terms is a label, a heading or markup, not a claim
EMBED_CANDIDATES = 16  # sentences embedded per answer: the lexical best, enough to find paraphrases
ANSWER_CHARS = 900
# The best answering sentence must also score this much overall (coverage, cosine and rank together).
MIN_SCORE = 0.33
# A key term found only in the sentence before (or the document's title) counts this much: "Its population
# grew to 600 animals" answers "how large did the lion population grow" in a passage about lions.
CONTEXT_SHARE = 0.5
# The key-term coverage a list must reach to answer a question that did not ask for a list when no sentence
# answers it: the lead-in or the section names most of what is asked.
UNASKED_LIST_COVERAGE = 0.5
# A sentence in another language than the question shares no terms with it; its coverage is read from the
# cosine instead (multilingual e5: a relevant translation ~0.83, unrelated text ~0.78).
CROSS_LANGUAGE_COSINE = (0.78, 0.10)
# A key term that no evidence sentence holds at all weighs this many times the rarest term that one does hold:
# evidence that never names what the question names is on the topic but not on the question.
# (CMRC TUNE, coverage floor 0.3: factor 1 → abstains on 0.87 of unanswerable, first claim holds the answer on
# 0.76 of factoid questions; 2 → 0.92 and 0.75; 3 → 0.93 and 0.73.)
ABSENT_FACTOR = 2.0
# A sentence that writes a number with the unit a "how many" question counts (question.Question.unit) scores this
# much more. (CMRC TUNE: "水栖昆虫大约有多少种" led with "分属11个目" before "约有30,000种" of the same passage,
# 0.085 apart with the embedding model; in the composer-only loop (300 TUNE questions) the answering sentence
# was 0.004 under one with another number. With 0.1 and the kind nouns, that loop's factoid first claim went
# 0.766 → 0.814, its abstention on the unanswerable cases 0.904 → 0.901.)
UNIT_BONUS = 0.1
KEEP_RATIO = 0.6  # further sentences must score at least this share of the best one
DUPLICATE_JACCARD = 0.6
FACTOID_SENTENCES = 2  # a one-fact question: the answering sentence and at most one more that also answers
EXPLAIN_SENTENCES = 3  # how/why/definition: the best sentence and the ones that carry its explanation on


@dataclass
class Candidate:
    number: int  # evidence number
    document_id: int
    rank: int  # 0-based evidence rank
    position: int  # sentence position in its chunk
    text: str
    terms: set[str]
    context: set[str] = field(default_factory=set)  # terms of the sentence before it
    title: set[str] = field(default_factory=set)  # terms of its document's title
    passage: str = ""  # its chunk's text and title: the question's anchors (its subject) may be named anywhere there
    coverage: float = 0.0  # of the question's key terms (weighted), context counting CONTEXT_SHARE: for the gate
    own: float = 0.0  # the same from the sentence (and title) alone: for the ranking
    similarity: float = 0.0
    score: float = 0.0
    answers: bool = False  # question.can_answer: holds the asked kind and enough key terms

    @property
    def language(self) -> str:
        return detect(self.text)


def _announces(sentence: str) -> bool:
    """A sentence that announces what follows ("文献工作国家标准汇编:"): without it, it says nothing of its own."""
    return sentence.rstrip().endswith((":", "："))


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(1, len(a | b))


class ExtractiveComposer:
    name = "extractive"

    def __init__(self, max_sentences: int = 4, embedder=None, use_embeddings: bool = True) -> None:
        self.max_sentences = max_sentences
        self._embedder = embedder
        self.use_embeddings = use_embeddings
        self.min_coverage: dict[str, float] = dict(KEY_COVERAGE)  # per language; the calibration script sets it
        self.min_score = MIN_SCORE

    def _model(self):
        if not self.use_embeddings:
            return None
        if self._embedder is None:
            self._embedder, _ = query_embedder()
        return self._embedder

    def candidates(self, request: ComposeRequest) -> list[Candidate]:
        out = []
        for rank, evidence in enumerate(request.evidence):
            hit = evidence.hit
            title_terms = similarity.content_terms(hit.title or "")
            previous: set[str] = set()
            passage = f"{hit.title} {hit.text}"
            for position, text in enumerate(sentences(without_heading(hit.text, hit.section, hit.heading_path))):
                text = without_label(without_source_markers(text).strip())
                terms = similarity.content_terms(text)
                context, previous = previous, terms
                if position == 0 and text[:1].islower():
                    continue  # the chunk starts mid-sentence
                # Headings, titles, keyword lines, front matter, figure labels, fragments (answers.claims).
                if non_claim_reason(text, title=hit.title, section=hit.section, heading_path=hit.heading_path):
                    continue
                if len(terms) < MIN_TERMS:
                    continue
                # A Chinese character carries about a word: "体长可达10公分。" (9 characters) is a full sentence, and
                # MIN_TERMS already keeps fragments out.
                if (MIN_CHARS if detect(text) == "en" else MIN_CHARS_CJK) <= len(text) <= MAX_CHARS:
                    out.append(
                        Candidate(
                            evidence.number, hit.document_id, rank, position, text, terms, context, title_terms, passage
                        )
                    )
        return out

    def _coverage(self, question: Question, c: Candidate, weights: dict[str, float]) -> tuple[float, float]:
        """(own, with context). The document's title names what all its sentences are about ("他于1981年毕业于…"
        in 楼曾瑞's article): its terms count in full; the sentence before counts CONTEXT_SHARE, and only for the
        gate: among sentences that can answer, the one that says it all itself comes first."""
        own = key_coverage(question, c.text, weights, c.terms | c.title)
        if not c.context:
            return own, own
        with_context = key_coverage(question, c.text, weights, c.terms | c.title | c.context)
        return own, own + CONTEXT_SHARE * (with_context - own)

    def score(self, question: str | Question, candidates: list[Candidate], language: str = "en") -> list[Candidate]:
        """Score every candidate and mark those that can answer; the best first."""
        q = question if isinstance(question, Question) else classify(question)
        weights = similarity.term_weights([c.text for c in candidates])
        # A key term no candidate holds is as rare as a term can be here: it weighs the most, not the least, so
        # topical evidence that lacks the question's subject covers little of the question.
        for term in q.key_terms - weights.keys():
            weights[term] = ABSENT_FACTOR * similarity.absent_weight(len(candidates))
        for c in candidates:
            c.own, c.coverage = self._coverage(q, c, weights)
        candidates.sort(key=lambda c: (-c.coverage, c.rank, c.position))
        top = candidates[:EMBED_CANDIDATES]
        cosines = similarity.question_cosines(self._model(), q.text, [c.text for c in top])
        for i, c in enumerate(candidates):
            prior = 1.0 / (1 + c.rank)
            if cosines is not None:
                c.similarity = similarity.rescale_cosine(cosines[i]) if i < len(top) else 0.0
                if i < len(top) and c.language != language:
                    floor, span = CROSS_LANGUAGE_COSINE
                    c.coverage = max(c.coverage, min(1.0, max(0.0, (cosines[i] - floor) / span)))
                    c.own = max(c.own, c.coverage)
                c.score = 0.55 * c.own + 0.35 * c.similarity + 0.10 * prior
            else:
                c.score = 0.9 * c.own + 0.10 * prior
            if q.kind == "number" and holds_unit(c.text, q.unit):
                c.score += UNIT_BONUS  # "约有30,000种" answers "多少种", "分属11个目" in the same passage does not
            c.answers = (
                c.coverage >= self.min_coverage.get(q.language, 0.5)
                and anchors_found(q, c.passage)
                and (q.kind not in FACTOID_KINDS or bool(new_items(q, c.text)))
            )
        candidates.sort(key=lambda c: (-c.score, c.rank, c.position))
        return candidates

    def choose(
        self, request: ComposeRequest, ranked: list[Candidate], question: Question | None = None
    ) -> tuple[list[Candidate], list[Candidate]]:
        """(answer sentences, conflicting sentences); both empty when no sentence can answer the question."""
        q = question or classify(request.question, [asked for asked, _ in request.history])
        if statements.is_statement(q):
            # A claim to check is answered by the sentence that states it, not by its topic's words.
            ranked = statements.gate(q, ranked, statements.collection_idf(request.evidence))
        answering = [c for c in ranked if c.answers]
        if not answering or answering[0].score < self.min_score:
            return [], []
        same_language = [c for c in answering if c.language == request.language]
        if same_language and same_language[0].score >= KEEP_RATIO * answering[0].score:
            answering = same_language
        best = answering[0]
        floor = max(self.min_score, KEEP_RATIO * best.score)
        if q.kind in EXPLAIN_KINDS:
            # "Why …?" is best answered by the good sentence that gives a cause ("because …"), "how" by a means.
            # Within the passage that answers best, that sentence leads even if it repeats fewer of the words.
            best = next(
                (
                    c
                    for c in answering
                    if (c.score >= floor or c.number == best.number) and holds_kind(c.text, q.kind, q.language)
                ),
                best,
            )
        if q.kind in FACTOID_KINDS:
            pool, limit = [c for c in answering if c.score >= floor], min(FACTOID_SENTENCES, self.max_sentences)
        elif q.kind in EXPLAIN_KINDS:
            # The sentences right after the best one in its passage carry the explanation on.
            following = sorted(
                (c for c in ranked if c.number == best.number and 0 < c.position - best.position < EXPLAIN_SENTENCES),
                key=lambda c: c.position,
            )
            pool, limit = [best, *following], EXPLAIN_SENTENCES
        else:
            pool, limit = [c for c in answering if c.score >= floor], self.max_sentences
        chosen: list[Candidate] = []
        length = 0
        for c in pool:
            if any(_jaccard(c.terms, k.terms) > DUPLICATE_JACCARD for k in chosen) or any(
                disagree(c, k) for k in chosen
            ):
                continue
            if len(chosen) >= limit or (chosen and length + len(c.text) > ANSWER_CHARS):
                continue
            chosen.append(c)
            length += len(c.text)
        # Disagreement: a sentence on the same thing (a good score) that says the opposite of a chosen one.
        conflicts: list[Candidate] = []
        for c in ranked:
            if c in chosen or c.score < floor:
                continue
            if any(disagree(c, k) for k in chosen) and len(conflicts) < 2:
                conflicts.append(c)
        if q.kind not in FACTOID_KINDS and chosen:
            # The sentence that answers best leads ("first the answer, then what supports it"), as in a factoid
            # answer; the rest is grouped by chunk (best group first), in document order inside a group, which
            # reads better than a list by score. (CMRC TUNE, 300 questions without the embedding model: 13 of the
            # questions of other kinds whose first claim missed the answer had it in the best sentence, behind
            # an earlier sentence of the same passage.)
            group_rank: dict[int, int] = {}
            for i, c in enumerate(chosen):
                group_rank.setdefault(c.number, i)
            chosen[1:] = sorted(chosen[1:], key=lambda c: (group_rank[c.number], c.position))
        return chosen, conflicts

    def list_answer(self, question: Question, evidence: list[Evidence]) -> str:
        """The answer to a list question: the list on the question (list_answer.best_list) written out, else a
        list written inside a sentence; "" when the evidence holds neither."""
        threshold = self.min_coverage.get(question.language, 0.5)
        if names_a_table(question):
            # "… in the Framework Integration table": the table the question names is the list, row by row.
            named = [(key_coverage(question, f"{t.sections} {t.context}"), t) for t in table_lists(question, evidence)]
            named = [(c, t) for c, t in named if c >= threshold]
            if named:
                return written_list(max(named, key=lambda ct: ct[0])[1])
        best = best_list(question, evidence, threshold, CONTEXT_SHARE)
        # A section the question names may list its items as its subsections ("Which components …?" over
        # "Components" > "Scrapy Engine", "Scheduler", …): they answer unless the list found is inside that section.
        outline = outline_list(question.text, evidence)
        if outline is not None and (best is None or not best.sections.startswith(outline.sections)):
            best = outline
        return written_list(best) if best is not None else self._enumerating_answer(question, evidence)

    def _announced_list(self, question: Question, evidence: list[Evidence], several: bool) -> str:
        """When no sentence answers a question that did not ask for a list, a list whose lead-in itself names
        what is asked does: "What does attrs give you?" is answered by "After declaring your attributes, attrs
        gives you:" and its items, which no single sentence holds. Not for a factoid (its item must be in one
        sentence), a list question (it has looked already) or a statement to check (no question mark anywhere: a
        claim is not answered by a list that shares its words); a heading or the items naming the question is not
        enough (a passage's title over clauses after "（学名：" answered an unanswerable CMRC question)."""
        if question.kind in FACTOID_KINDS or several or not {"?", "？"} & set(question.text):
            return ""
        best = best_list(replace(question, kind="list"), evidence, UNASKED_LIST_COVERAGE, CONTEXT_SHARE)
        if best is None or not best.lead or key_coverage(question, best.lead) < UNASKED_LIST_COVERAGE:
            return ""
        return written_list(best)

    def steps_answer(self, question: Question, evidence: list[Evidence]) -> str:
        """A how-question's answer when the evidence numbers the steps for it: that counted list written out."""
        threshold = self.min_coverage.get(question.language, 0.5)
        best = best_list(question, evidence, threshold, CONTEXT_SHARE, steps=True)
        return written_list(best) if best is not None else ""

    def _enumerating_answer(self, question: Question, evidence: list[Evidence]) -> str:
        """A list written inside a sentence ("US, CT, MRI, and PET/CT are common imaging methods …"): among the
        sentences that can answer and score near the best one (KEEP_RATIO), the best that names three or more
        things in a row leads; the sentences the composer would have chosen follow (one that goes on with the
        list among them), so nothing the answer held is lost. "" when no such sentence answers."""
        request = ComposeRequest(question.text, evidence, language=question.language)
        ranked = self.score(question, self.candidates(request), question.language)
        answering = [c for c in ranked if c.answers]
        if not answering or answering[0].score < self.min_score:
            return ""
        floor = max(self.min_score, KEEP_RATIO * answering[0].score)
        # A lead-in ("…（itemize、enumerate、description），示例如下：") announces a list; it is not one.
        lead = next((c for c in answering if c.score >= floor and enumerates(c.text) and not is_lead_in(c.text)), None)
        if lead is None:
            return ""
        chosen, _ = self.choose(request, ranked, question)
        parts = [lead, *(c for c in chosen if c is not lead and not _announces(c.text))]
        return "".join(
            ("" if i == 0 else (" " if parts[i - 1].number == c.number else "\n\n")) + marked(c.text, c.number)
            for i, c in enumerate(parts)
        )

    def stream(self, request: ComposeRequest) -> Iterator[str | Conflict]:
        question = classify(request.question, [asked for asked, _ in request.history])
        if question.kind != "list" and asks_for_what_was_announced(request, question):
            question = replace(question, kind="list")
        # "Which PDFs are filtered out …?" asks for a list by its plural noun alone: the list is looked for first,
        # and without one the question is answered as its own kind.
        several = question.kind == "list" or asks_for_several(question.text, question.kind)
        if several and (listed := self.list_answer(replace(question, kind="list"), request.evidence)):
            yield listed
            return
        if question.kind == "how" and (steps := self.steps_answer(question, request.evidence)):
            yield steps  # "怎样用 JabRef 新建文献库…？": the numbered steps listed for it
            return
        ranked = self.score(question, self.candidates(request), request.language)
        chosen, conflicts = self.choose(request, ranked, question)
        if chosen and (listed := lead_in_list(chosen[0].text, chosen[0].number, request.evidence)):
            yield listed  # the best sentence announces a list ("Which four groups …?"): the list answers
            return
        if not chosen and (listed := self._announced_list(question, request.evidence, several)):
            yield listed
            return
        chosen = [c for c in chosen if not _announces(c.text)] or chosen
        for i, c in enumerate(chosen):
            joiner = "" if i == 0 else (" " if chosen[i - 1].number == c.number else "\n\n")
            yield joiner + marked(c.text, c.number)
        for c in conflicts:
            yield Conflict(text=marked(c.text, c.number))
