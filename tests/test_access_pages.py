"""Every collection page for each persona: member roles, a member of another collection, anonymous."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.documents.models import Document, Membership

pytestmark = pytest.mark.django_db


def _login_redirect(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(reverse("login"))


READ_PAGES = [
    ("collection-detail", lambda c, d: {"slug": c.slug}),
    ("document-detail", lambda c, d: {"document_id": d.pk}),
    ("document-status", lambda c, d: {"document_id": d.pk}),
    ("document-file", lambda c, d: {"document_id": d.pk}),
]


@pytest.mark.parametrize("name,kwargs", READ_PAGES)
@pytest.mark.parametrize(
    "persona,expected", [("viewer", 200), ("editor", 200), ("manager", 200), ("admin", 200), ("outsider", 404)]
)
def test_read_pages_answer_members_and_hide_from_others(
    page_client_for, collection, document, name, kwargs, persona, expected
):
    response = page_client_for(persona).get(reverse(name, kwargs=kwargs(collection, document)))
    # the status row of a finished job answers 286 so that htmx stops polling
    assert response.status_code == (286 if name == "document-status" and expected == 200 else expected)


@pytest.mark.parametrize("name,kwargs", READ_PAGES)
def test_read_pages_send_anonymous_people_to_log_in(page_client_for, collection, document, name, kwargs):
    response = page_client_for(None).get(reverse(name, kwargs=kwargs(collection, document)))
    assert _login_redirect(response)


def test_the_collection_list_shows_only_ones_own_collections(page_client_for, collection, other_collection):
    body = page_client_for("viewer").get(reverse("collection-list")).content.decode()
    assert "Lab notes" in body and "Other team" not in body
    body = page_client_for("outsider").get(reverse("collection-list")).content.decode()
    assert "Other team" in body and "Lab notes" not in body


def test_the_collection_list_needs_a_login(page_client_for):
    assert _login_redirect(page_client_for(None).get(reverse("collection-list")))


def test_the_file_download_returns_the_stored_bytes(page_client_for, document):
    response = page_client_for("viewer").get(reverse("document-file", kwargs={"document_id": document.pk}))
    assert b"".join(response.streaming_content) == b"hello world"


@pytest.mark.parametrize(
    "persona,expected", [("viewer", 403), ("outsider", 404), ("anonymous", 302), ("editor", 302), ("manager", 302)]
)
def test_upload_is_for_editors(page_client_for, collection, persona, expected, tmp_path):
    upload = tmp_path / "memo.txt"
    upload.write_text("A memo about the lab.\n\nSecond paragraph.")
    client = page_client_for(None if persona == "anonymous" else persona)
    with upload.open("rb") as fh:
        response = client.post(reverse("collection-upload", kwargs={"slug": collection.slug}), {"files": [fh]})
    assert response.status_code == expected
    assert Document.objects.filter(original_name="memo.txt").exists() == (persona in ("editor", "manager"))


def test_upload_of_an_unsupported_type_is_refused_with_a_reason(page_client_for, collection, tmp_path):
    upload = tmp_path / "tool.exe"
    upload.write_bytes(b"MZ....")
    client = page_client_for("editor")
    with upload.open("rb") as fh:
        response = client.post(
            reverse("collection-upload", kwargs={"slug": collection.slug}), {"files": [fh]}, follow=True
        )
    assert "not supported" in response.content.decode()
    assert not Document.objects.filter(original_name="tool.exe").exists()


@pytest.mark.parametrize("name", ["document-reingest", "document-delete"])
@pytest.mark.parametrize("persona,expected", [("viewer", 403), ("outsider", 404), ("anonymous", 302)])
def test_document_actions_are_refused_to_non_editors(page_client_for, document, name, persona, expected):
    client = page_client_for(None if persona == "anonymous" else persona)
    response = client.post(reverse(name, kwargs={"document_id": document.pk}))
    assert response.status_code == expected
    assert Document.objects.filter(pk=document.pk).exists()


def test_an_editor_deletes_a_document_and_its_file(page_client_for, document):
    storage, name = document.file.storage, document.file.name
    with pytest.MonkeyPatch.context() as mp:
        # on_commit callbacks run only when the test's transaction commits; run them at once here
        mp.setattr("django.db.transaction.on_commit", lambda fn, using=None, robust=False: fn())
        response = page_client_for("editor").post(reverse("document-delete", kwargs={"document_id": document.pk}))
    assert response.status_code == 302
    assert not Document.objects.filter(pk=document.pk).exists()
    assert not storage.exists(name)


@pytest.mark.parametrize(
    "persona,expected",
    [("manager", 200), ("admin", 200), ("editor", 403), ("viewer", 403), ("outsider", 404), ("anonymous", 302)],
)
def test_the_members_page_is_for_managers(page_client_for, collection, persona, expected):
    client = page_client_for(None if persona == "anonymous" else persona)
    response = client.get(reverse("collection-members", kwargs={"slug": collection.slug}))
    assert response.status_code == expected


def test_a_manager_adds_a_member_who_then_sees_the_collection(page_client_for, collection, personas, make_user):
    newcomer = make_user("nina", email="nina@example.org")
    client = page_client_for("manager")
    response = client.post(
        reverse("collection-members", kwargs={"slug": collection.slug}), {"user": "NINA@example.org", "role": "editor"}
    )
    assert response.status_code == 302
    assert Membership.objects.get(user=newcomer, collection=collection).role == "editor"
    client.force_login(newcomer)
    assert client.get(reverse("collection-detail", kwargs={"slug": collection.slug})).status_code == 200


def test_adding_an_unknown_account_explains_what_to_do(page_client_for, collection):
    response = page_client_for("manager").post(
        reverse("collection-members", kwargs={"slug": collection.slug}), {"user": "ghost", "role": "viewer"}
    )
    assert response.status_code == 200
    assert "an administrator can create it" in response.content.decode()


@pytest.mark.parametrize("persona,expected", [("editor", 403), ("outsider", 404), ("anonymous", 302), ("manager", 302)])
def test_only_managers_change_or_remove_members(page_client_for, collection, personas, persona, expected):
    membership = Membership.objects.get(user=personas["viewer"], collection=collection)
    url = reverse("membership-update", kwargs={"slug": collection.slug, "membership_id": membership.pk})
    response = page_client_for(None if persona == "anonymous" else persona).post(url, {"action": "remove"})
    assert response.status_code == expected
    assert Membership.objects.filter(pk=membership.pk).exists() == (persona != "manager")


def test_a_manager_changes_a_role(page_client_for, collection, personas):
    membership = Membership.objects.get(user=personas["viewer"], collection=collection)
    url = reverse("membership-update", kwargs={"slug": collection.slug, "membership_id": membership.pk})
    page_client_for("manager").post(url, {"role": "editor"})
    membership.refresh_from_db()
    assert membership.role == "editor"


def test_a_membership_of_another_collection_cannot_be_changed_through_ones_own(
    page_client_for, other_collection, collection, personas
):
    foreign = Membership.objects.get(user=personas["outsider"], collection=other_collection)
    url = reverse("membership-update", kwargs={"slug": collection.slug, "membership_id": foreign.pk})
    assert page_client_for("manager").post(url, {"action": "remove"}).status_code == 404
    assert Membership.objects.filter(pk=foreign.pk).exists()


def test_a_manager_cannot_remove_themself(page_client_for, collection, personas):
    membership = Membership.objects.get(user=personas["manager"], collection=collection)
    url = reverse("membership-update", kwargs={"slug": collection.slug, "membership_id": membership.pk})
    page_client_for("manager").post(url, {"action": "remove"})
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_a_removed_member_loses_access_at_once(page_client_for, collection, personas):
    client = page_client_for("viewer")
    url = reverse("collection-detail", kwargs={"slug": collection.slug})
    assert client.get(url).status_code == 200
    Membership.objects.filter(user=personas["viewer"]).delete()
    assert client.get(url).status_code == 404


def test_the_status_row_keeps_polling_while_a_job_runs(page_client_for, document):
    job = document.latest_job()
    job.stage, job.done, job.total = "index", 3, 10
    job.save()
    response = page_client_for("viewer").get(reverse("document-status", kwargs={"document_id": document.pk}))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'hx-trigger="every 1s"' in body and 'value="93"' in body  # index stage: 90% + 3/10 of its 10%


def test_the_api_token_page_makes_and_replaces_a_token(page_client_for, personas):
    from rest_framework.authtoken.models import Token

    client = page_client_for("viewer")
    client.post(reverse("api-token"))
    first = Token.objects.get(user=personas["viewer"]).key
    client.post(reverse("api-token"))
    assert Token.objects.get(user=personas["viewer"]).key != first
    assert first not in client.get(reverse("api-token")).content.decode()


def test_logging_in_with_a_wrong_password_says_so(client, personas):
    response = client.post(reverse("login"), {"username": "vic", "password": "wrong"})
    assert response.status_code == 200 and "did not match" in response.content.decode()
    response = client.post(reverse("login"), {"username": "vic", "password": "pw-vic"})
    assert response.status_code == 302 and response["Location"] == reverse("home")  # the home page


def test_logging_out_ends_the_session(page_client_for):
    client = page_client_for("viewer")
    assert client.post(reverse("logout")).status_code == 302
    assert _login_redirect(client.get(reverse("collection-list")))


def test_administrators_create_collections_with_members_in_the_admin(page_client_for, personas):
    client = page_client_for("admin")
    response = client.post(
        reverse("admin:documents_collection_add"),
        {
            "name": "Grants",
            "slug": "grants",
            "description": "",
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
            "memberships-0-user": personas["viewer"].pk,
            "memberships-0-role": "viewer",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    client.force_login(personas["viewer"])
    assert client.get(reverse("collection-detail", kwargs={"slug": "grants"})).status_code == 200


def test_the_admin_is_closed_to_members(page_client_for):
    response = page_client_for("manager").get(reverse("admin:documents_collection_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_collection_page_costs_the_same_queries_for_many_documents(
    page_client_for, collection, document, django_assert_max_num_queries
):
    from apps.documents.models import Document, IngestJob

    client = page_client_for("viewer")
    for n in range(10):
        extra = Document.objects.create(
            collection=collection, original_name=f"d{n}.txt", sha256=f"{n:064d}", file=f"x/d{n}.txt"
        )
        IngestJob.objects.create(document=extra, stage="index", done=n, total=10)
    with django_assert_max_num_queries(12):
        body = client.get(reverse("collection-detail", kwargs={"slug": collection.slug})).content.decode()
    assert body.count('hx-trigger="every 1s"') == 10


def test_the_document_page_shows_metadata_and_pages_needing_ocr(page_client_for, document):
    document.authors, document.year, document.journal, document.needs_ocr_pages = ["Ada Lovelace"], 1843, "Notes", [2]
    document.save()
    body = page_client_for("viewer").get(reverse("document-detail", kwargs={"document_id": document.pk})).content
    text = body.decode()
    assert "Ada Lovelace (1843)" in text and "<em>Notes</em>" in text and "Page 2 had no readable text layer" in text
