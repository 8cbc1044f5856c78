"""The home page: search and ask across every collection a person may read, the collection picker, recent
conversations; and the proof that a non-member never sees another collection's passages there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.citations.models import Conversation
from apps.documents.models import Membership
from apps.documents.services.bulk import TextItem, add_texts

pytestmark = pytest.mark.django_db

SECRET = "quokkalith"  # a word only the lab's document holds


@pytest.fixture
def libraries(collection, other_collection, personas, embedder):
    """A lab document with the secret and one in `other`, both about lions; `both` reads both collections."""
    add_texts(
        collection,
        [TextItem("lab-lions.txt", "Lab lions", f"Asiatic lions in the Gir forest carry {SECRET} collars since 2015.")],
        embedder,
    )
    add_texts(
        other_collection,
        [TextItem("other-lions.txt", "Other lions", "Asiatic lions in the Gir forest were counted in 2020.")],
        embedder,
    )
    both = personas["viewer"]
    Membership.objects.create(user=both, collection=other_collection, role="viewer")
    return both


def test_home_is_the_site_root_for_people_who_are_logged_in(page_client_for, personas):
    assert reverse("home") == "/"
    anonymous = page_client_for(None).get(reverse("home"))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))


def test_home_lists_the_readable_collections_and_only_ones_own_recent_conversations(page_client_for, personas):
    Conversation.objects.create(user=personas["manager"], collection_id=None, title="question of the manager")
    Conversation.objects.create(user=personas["viewer"], collection_id=None, title="question of the viewer")
    html = page_client_for("viewer").get(reverse("home")).content.decode()
    assert "Lab notes" in html and "Other team" not in html  # the picker: readable collections only
    assert "question of the viewer" in html and "question of the manager" not in html


def test_home_search_finds_passages_of_every_readable_collection_and_names_each(page_client_for, libraries):
    html = page_client_for("viewer").get(reverse("home"), {"q": "Asiatic lions Gir forest"}).content.decode()
    assert "in Lab notes" in html and "in Other team" in html
    assert "Lab lions" in html and "Other lions" in html


def test_home_search_never_shows_a_non_member_another_collections_passages(page_client_for, libraries):
    client = page_client_for("outsider")  # a member of `other` only
    for query in ("Asiatic lions Gir forest", SECRET, f"{SECRET} collars"):
        for depth in ("quick", "deep"):
            html = client.get(reverse("home"), {"q": query, "depth": depth}).content.decode()
            # the query is echoed in the page's links; the lab passage's other words, title and file are not there
            assert "since 2015" not in html and "Lab lions" not in html and "lab-lions.txt" not in html
            assert "in Lab notes" not in html
    html = client.get(reverse("home"), {"q": "Asiatic lions Gir forest"}).content.decode()
    assert "Other lions" in html  # the check above can fail: the outsider does find their own collection's


def test_home_ask_answers_from_every_readable_collection(page_client_for, libraries):
    client = page_client_for("viewer")
    response = client.post(reverse("home"), {"question": "When were the Asiatic lions of the Gir forest counted?"})
    assert response.status_code == 302
    conversation = Conversation.objects.get(user=libraries)
    assert conversation.collection is None
    message = conversation.messages.get()
    cited = {c["collection"] for c in message.result["citations"]}
    assert "other" in cited
    assert set(conversation.sources.values_list("slug", flat=True)) >= cited
    page = client.get(response["Location"]).content.decode()
    assert "All your collections" in page


def test_home_ask_never_gives_a_non_member_another_collections_passages(page_client_for, personas, libraries):
    client = page_client_for("outsider")
    response = client.post(reverse("home"), {"question": f"What collars do the Gir lions carry, {SECRET}?"})
    assert response.status_code == 302
    conversation = Conversation.objects.get(user=personas["outsider"])
    stored = str(conversation.messages.get().result)
    assert "lab-lions.txt" not in stored and "'collection': 'lab'" not in stored
    assert set(conversation.sources.values_list("slug", flat=True)) <= {"other"}
    assert "Lab lions" not in client.get(response["Location"]).content.decode()


def test_losing_a_collection_hides_the_conversations_across_collections_that_quote_it(
    page_client_for, libraries, other_collection
):
    client = page_client_for("viewer")
    response = client.post(reverse("home"), {"question": "When were the Asiatic lions of the Gir forest counted?"})
    conversation = Conversation.objects.get(user=libraries)
    assert client.get(response["Location"]).status_code == 200
    Membership.objects.filter(user=libraries, collection=other_collection).delete()
    assert client.get(reverse("conversation-detail", args=[conversation.pk])).status_code == 404
    assert "When were the Asiatic lions" not in client.get(reverse("home")).content.decode()


def test_a_follow_up_in_a_conversation_across_collections_stays_across_them(page_client_for, libraries):
    client = page_client_for("viewer")
    client.post(reverse("home"), {"question": "When were the Asiatic lions of the Gir forest counted?"})
    conversation = Conversation.objects.get(user=libraries)
    page = client.get(reverse("conversation-detail", args=[conversation.pk])).content.decode()
    assert f'action="{reverse("home")}"' in page  # the follow-up form posts to the home page without JavaScript
    response = client.post(
        reverse("home"), {"question": "And what collars do they carry?", "conversation": conversation.pk}
    )
    assert response.status_code == 302
    assert Conversation.objects.filter(user=libraries).count() == 1 and conversation.messages.count() == 2


def test_the_api_asks_all_collections_and_refuses_a_collection_beside_it(api_client_for, libraries):
    client = api_client_for("viewer")
    ok = client.post(
        reverse("api-ask"), {"question": "When were the Gir lions counted?", "all_collections": True}, format="json"
    )
    assert ok.status_code == 200, ok.content
    listed = client.get(reverse("api-conversation-list")).json()["results"]
    assert listed[0]["collection"] is None
    both = client.post(
        reverse("api-ask"), {"question": "lions?", "all_collections": True, "collection": "lab"}, format="json"
    )
    assert both.status_code == 400
