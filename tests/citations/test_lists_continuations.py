"""The chunks a list runs into, fetched from the database (issue 15): an item whose body fills a chunk of its own
before the list goes on, and the next section's heading, which ends the list even when a bullet follows it."""

from __future__ import annotations

import pytest

from apps.citations.answers.lists import between, continuations, find_lists
from apps.citations.answers.types import Evidence
from apps.documents.models import Chunk
from apps.documents.services.bulk import TextItem, add_texts
from apps.retrieval.search.hits import make_hit as hit_of_chunk
from apps.retrieval.search.service import Ranked

BODY = (
    "Clusters are designed to process large volumes of data and perform complex computations at very high speeds. "
    "Achieving the highest performance possible is a priority in their design and operation. Such prioritization, "
    "however, has its security implications. For instance, designers often make conscious decisions to build a less "
    "redundant system to achieve high performance, making the system less robust and potentially more vulnerable to "
    "attacks, such as denial of service. As another example, using a backup system to improve robustness and "
    "availability is a proven technology. However, building a spare or backup cluster is often too costly. Clusters "
    "often lack storage backup due to the vast size of the data stored. Similarly, most missions do not have a "
    "service-level agreement to justify the need for a full backup system at a second location. All resources are "
    "poured into building the single best system possible."
)
THREATS = "\n\n".join(
    [
        "# Other threats",
        "In addition to the threats that are unique to individual function zones, general computing clusters face "
        "the following:",
        "- Environmental and physical threats: attacks against facilities, unauthorized physical access, and natural "
        "disasters are all potential threats to a cluster.",
        "- Vulnerabilities introduced by prioritizing performance in design and operation:",
        BODY,
        "- Supply chain threats: the supply chain faces a variety of threats, from the theft of proprietary "
        "information to attacks on critical hardware components and software manipulation to gain unauthorized "
        "access.",
        "- Insider threats: insider threats come from people within the organization who have internal information "
        "and may have the privileges needed to access the cluster.",
        "# Security posture",
        "- Patch management: the operating system is patched every month.",
    ]
)


@pytest.mark.django_db(transaction=True)
def test_a_list_goes_on_after_a_chunk_that_holds_one_item_s_body_and_ends_at_the_next_heading(
    collection, personas, embedder
):
    (document,) = add_texts(collection, [TextItem("threats.md", "Cluster threats", THREATS)], embedder)
    chunks = list(
        Chunk.objects.filter(document=document).select_related("document__collection").order_by("chunk_index")
    )
    # The chunker's shape, which the test relies on: lead-in and two items | the body | two items | next section.
    assert [c.chunk_index for c in chunks] == [0, 1, 2, 3]
    assert chunks[0].text.endswith("design and operation:") and chunks[1].text == BODY
    assert chunks[3].text.startswith("Security posture")
    evidence = [Evidence(1, hit_of_chunk(chunks[0], Ranked(chunks[0].pk, 1.0, "fusion"), "", {}, 300))]

    hits = continuations(evidence, personas["viewer"], query="threats")
    # The body chunk is fetched because the chunk after it goes on with the list; the next section is not.
    assert [h.chunk_index for h in hits] == [1, 2]
    evidence += [Evidence(2 + i, hit) for i, hit in enumerate(hits)]
    (block,) = [b for b in find_lists(evidence) if b.lead]
    assert [(n, text.split(":")[0]) for n, text in block.items] == [
        (1, "- Environmental and physical threats"),
        (1, "- Vulnerabilities introduced by prioritizing performance in design and operation"),
        (3, "- Supply chain threats"),
        (3, "- Insider threats"),
    ]
    # A reader of another collection gets nothing.
    assert continuations(evidence[:1], personas["outsider"]) == []


@pytest.mark.django_db(transaction=True)
def test_the_chunk_retrieval_skipped_between_two_it_returned_is_read_in_for_readers_only(
    collection, personas, embedder
):
    (document,) = add_texts(collection, [TextItem("threats.md", "Cluster threats", THREATS)], embedder)
    chunks = list(
        Chunk.objects.filter(document=document).select_related("document__collection").order_by("chunk_index")
    )
    assert [c.chunk_index for c in chunks] == [0, 1, 2, 3]
    as_hit = lambda c: hit_of_chunk(c, Ranked(c.pk, 1.0, "fusion"), "", {}, 300)  # noqa: E731
    # Retrieval returned chunks 0 and 2 (the lead-in and the last items), not the body between them, nor 3.
    evidence = [Evidence(1, as_hit(chunks[2])), Evidence(2, as_hit(chunks[0]))]
    hits = between(evidence, personas["viewer"], query="threats")
    assert [h.chunk_index for h in hits] == [1]
    # Whole again, the stream reads as one list from the lead-in to the last item.
    evidence += [Evidence(3, hits[0])]
    (block,) = [b for b in find_lists(evidence) if b.lead]
    assert len(block.items) == 4
    # Nothing is skipped between neighbours, or between chunks two apart of different documents.
    assert between([Evidence(1, as_hit(chunks[0])), Evidence(2, as_hit(chunks[1]))], personas["viewer"]) == []
    assert between(evidence[:2], personas["viewer"], limit=0) == []
    assert between(evidence[:2], personas["outsider"]) == []
