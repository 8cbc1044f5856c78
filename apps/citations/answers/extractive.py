"""The default composer: an answer made only of evidence sentences, each followed by its [n].

No model writes anything, so no claim can appear that the evidence does not make. The work is choosing:

1. every sentence of every evidence chunk is a candidate (very short and very long ones are not);
2. each is scored by how much of the question's weighted terms it covers and by the embedding model's similarity
   to the question, with a small preference for better-ranked evidence;
3. when even the best sentence covers too little of the question, the answer says so plainly;
4. sentences in the question's language are preferred when they are good enough ("where the evidence allows");
5. near-duplicates are dropped, and a sentence that says the opposite of a chosen one about the same thing
   (negation, or the opposite direction of change) is listed apart as a conflicting source;
6. chosen sentences are grouped by their chunk (best group first) and kept in document order inside a group,
   which reads better than a list ordered by score.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from apps.citations.answers import similarity
from apps.citations.answers.citation import sentences, without_heading, without_label
from apps.citations.answers.conflicts import disagree
from apps.citations.answers.language import detect
from apps.citations.answers.types import ComposeRequest, Conflict

MIN_CHARS, MAX_CHARS = 25, 600
MIN_TERMS = 4  # fewer distinct content terms is a label, a heading or markup, not a claim
EMBED_CANDIDATES = 16  # sentences embedded per answer: the lexical best, enough to find paraphrases
ANSWER_CHARS = 900
# The best sentence must cover this share of the question's weighted terms, and score this much overall.
# Together the chosen sentences must cover this share of the question's weighted terms (one sentence may answer
# one half of a two-part question), each at least SENTENCE_COVERAGE; the best must score MIN_SCORE overall.
MIN_COVERAGE, SENTENCE_COVERAGE, MIN_SCORE = 0.45, 0.25, 0.33
# A sentence in another language than the question shares no terms with it; its coverage is read from the
# cosine instead (multilingual e5: a relevant translation ~0.83, unrelated text ~0.78).
CROSS_LANGUAGE_COSINE = (0.78, 0.10)
KEEP_RATIO = 0.6  # further sentences must score at least this share of the best one
DUPLICATE_JACCARD = 0.6

# A source's own reference markers ("[12]", "[3, 4]", "[5–7]") would read as our badges; they are taken out.
# (The service hands composers "(ref 12)" for them; both forms are removed here.)
_SOURCE_MARKERS = re.compile(r"\s*(?:\[|\(ref )\s*\d{1,3}(?:\s*[-–,;]\s*\d{1,3})*\s*[\])]")

# A paper's first page: banner, authors with affiliation numbers, correspondence, dates, licence.
_FRONT_MATTER = re.compile(
    r"\b(?:RESEARCH ARTICLE|Open Access|Correspondence|Received:|Accepted:|Published:|Copyright)|©|\w@\w"
    r"|(?:[A-Z][a-z]+\d+(?:,\d+)*\*?,\s*){2}"  # "Ross Barnett1,9*, Beth Shapiro2," : names with affiliation numbers
)


@dataclass
class Candidate:
    number: int  # evidence number
    document_id: int
    rank: int  # 0-based evidence rank
    position: int  # sentence position in its chunk
    text: str
    terms: set[str]
    coverage: float = 0.0
    similarity: float = 0.0
    score: float = 0.0

    @property
    def language(self) -> str:
        return detect(self.text)


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(1, len(a | b))


class ExtractiveComposer:
    name = "extractive"

    def __init__(self, max_sentences: int = 4, embedder=None, use_embeddings: bool = True) -> None:
        self.max_sentences = max_sentences
        self._embedder = embedder
        self.use_embeddings = use_embeddings
        self._wanted: set[str] = set()
        self._weights: dict[str, float] = {}

    def _model(self):
        if not self.use_embeddings:
            return None
        if self._embedder is None:
            from apps.retrieval.search.service import query_embedder

            self._embedder, _ = query_embedder()
        return self._embedder

    def candidates(self, request: ComposeRequest) -> list[Candidate]:
        out = []
        for rank, evidence in enumerate(request.evidence):
            hit = evidence.hit
            for position, text in enumerate(sentences(without_heading(hit.text, hit.section, hit.heading_path))):
                text = without_label(_SOURCE_MARKERS.sub("", text).strip())
                if position == 0 and text[:1].islower():
                    continue  # the chunk starts mid-sentence
                if re.match(r"(?:keywords?|key words|abbreviations)\s*:", text, re.I) or _FRONT_MATTER.search(text):
                    continue
                if len(similarity.content_terms(text)) < MIN_TERMS:
                    continue
                # A Chinese character carries about a word: a 12-character sentence is a full one.
                if (MIN_CHARS if detect(text) == "en" else MIN_CHARS // 2) <= len(text) <= MAX_CHARS:
                    out.append(
                        Candidate(
                            evidence.number,
                            evidence.hit.document_id,
                            rank,
                            position,
                            text,
                            similarity.content_terms(text),
                        )
                    )
        return out

    def score(self, question: str, candidates: list[Candidate], language: str = "en") -> list[Candidate]:
        """Score every candidate; the best first."""
        wanted = similarity.question_terms(question)
        weights = similarity.term_weights([c.text for c in candidates])
        self._wanted, self._weights = wanted, weights  # for the joint coverage in choose()
        for c in candidates:
            c.coverage = similarity.coverage(wanted, c.terms, weights)
        candidates.sort(key=lambda c: (-c.coverage, c.rank, c.position))
        top = candidates[:EMBED_CANDIDATES]
        cosines = similarity.question_cosines(self._model(), question, [c.text for c in top])
        for i, c in enumerate(candidates):
            prior = 1.0 / (1 + c.rank)
            if cosines is not None:
                c.similarity = similarity.rescale_cosine(cosines[i]) if i < len(top) else 0.0
                if i < len(top) and c.language != language:
                    floor, span = CROSS_LANGUAGE_COSINE
                    c.coverage = max(c.coverage, min(1.0, max(0.0, (cosines[i] - floor) / span)))
                c.score = 0.55 * c.coverage + 0.35 * c.similarity + 0.10 * prior
            else:
                c.score = 0.9 * c.coverage + 0.10 * prior
        candidates.sort(key=lambda c: (-c.score, c.rank, c.position))
        return candidates

    def choose(self, request: ComposeRequest, ranked: list[Candidate]) -> tuple[list[Candidate], list[Candidate]]:
        """(answer sentences, conflicting sentences); both empty when the evidence does not answer."""
        if not ranked or ranked[0].score < MIN_SCORE:
            return [], []
        floor = max(MIN_SCORE, KEEP_RATIO * ranked[0].score)
        good = [c for c in ranked if c.score >= floor and c.coverage >= SENTENCE_COVERAGE]
        same_language = [c for c in good if c.language == request.language]
        if same_language:
            good = same_language
        chosen: list[Candidate] = []
        conflicts: list[Candidate] = []
        length = 0
        for c in good:
            # Disagreement first: "X did not increase Y" shares nearly every term with "X increased Y".
            if any(disagree(c, k) for k in chosen):
                if len(conflicts) < 2:
                    conflicts.append(c)
                continue
            if any(_jaccard(c.terms, k.terms) > DUPLICATE_JACCARD for k in chosen):
                continue
            if len(chosen) >= self.max_sentences or (chosen and length + len(c.text) > ANSWER_CHARS):
                continue
            chosen.append(c)
            length += len(c.text)
        found = set().union(*(c.terms for c in chosen)) if chosen else set()
        joint = max([similarity.coverage(self._wanted, found, self._weights), *(c.coverage for c in chosen)])
        if joint < MIN_COVERAGE:
            return [], []
        group_rank = {}
        for i, c in enumerate(chosen):
            group_rank.setdefault(c.number, i)
        chosen.sort(key=lambda c: (group_rank[c.number], c.position))
        return chosen, conflicts

    def stream(self, request: ComposeRequest) -> Iterator[str | Conflict]:
        ranked = self.score(request.question, self.candidates(request), request.language)
        chosen, conflicts = self.choose(request, ranked)
        for i, c in enumerate(chosen):
            joiner = "" if i == 0 else (" " if chosen[i - 1].number == c.number else "\n\n")
            yield joiner + _marked(c.text, c.number)
        for c in conflicts:
            yield Conflict(text=_marked(c.text, c.number))


def _marked(sentence: str, number: int) -> str:
    """The marker goes before the sentence's closing punctuation: "… fractures [2]." reads as one claim."""
    if sentence[-1] in ".!?。！？；;":
        return f"{sentence[:-1]} [{number}]{sentence[-1]}"
    return f"{sentence} [{number}]"
