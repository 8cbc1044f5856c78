"""Shared fixtures: the personas of the access tests, a collection with a document, the worker and browser."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.utils import translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from apps.documents.models import Chunk, Collection, Document, DocumentStatus, IngestJob, JobStage, Membership

# CI sets this: a test that needs a service, the worker or the browser must then fail, never skip.
STRICT = os.environ.get("PORTAL_REQUIRE_SERVICES", "") not in ("", "0", "false")


def need(condition: bool, reason: str) -> None:
    """Skip on a developer's machine that lacks an optional service; fail in CI."""
    if condition:
        return
    if STRICT:
        pytest.fail(f"required for CI but missing: {reason}")
    pytest.skip(reason)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that pull a cable between the portal and PostgreSQL or Redis need both over TCP: marked, so that CI runs
    the rest exactly as a new user does (embedded servers on Unix sockets) and these against the machine's servers."""
    for item in items:
        if "service_urls" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.tcp_services)


@pytest.fixture
def make_user(db):
    def make(username: str, **extra):
        return get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)

    return make


@pytest.fixture
def collection(db):
    return Collection.objects.create(name="Lab notes", slug="lab", description="The lab's papers")


@pytest.fixture
def other_collection(db):
    return Collection.objects.create(name="Other team", slug="other")


@pytest.fixture
def personas(make_user, collection, other_collection):
    """manager/editor/viewer of `collection`, a member of another collection only, and an admin."""
    people = {
        "manager": make_user("mia"),
        "editor": make_user("ed"),
        "viewer": make_user("vic"),
        "outsider": make_user("otto"),
    }
    for role in ("manager", "editor", "viewer"):
        Membership.objects.create(user=people[role], collection=collection, role=role)
    Membership.objects.create(user=people["outsider"], collection=other_collection, role="manager")
    people["admin"] = get_user_model().objects.create_superuser("root", password="pw-root")
    return people


@pytest.fixture
def document(collection, personas):
    doc = Document(
        collection=collection,
        original_name="notes.txt",
        doc_type="txt",
        size=11,
        sha256="a" * 64,
        status=DocumentStatus.READY,
        chunk_count=1,
        title="Notes",
    )
    doc.file.save("notes.txt", ContentFile(b"hello world"), save=False)
    doc.save()
    IngestJob.objects.create(document=doc, stage=JobStage.DONE, done=1, total=1)
    Chunk.objects.create(
        document=doc,
        chunk_index=0,
        text="hello world",
        locator_precision="paragraph",
        para_start=0,
        para_end=0,
        line_start=1,
        line_end=1,
    )
    return doc


@pytest.fixture(scope="session")
def embedder():
    """The configured embedding model, loaded once (the same one ingest and search use)."""
    from django.conf import settings

    from apps.retrieval.embedding.encoder import get_embedder

    return get_embedder(settings.PORTAL_EMBEDDING_MODEL)


@pytest.fixture
def api_client_for(personas):
    """An API client authenticated by token (as integrations do) for a persona name, or anonymous."""

    def make(persona: str | None) -> APIClient:
        client = APIClient()
        if persona is not None:
            token, _ = Token.objects.get_or_create(user=personas[persona])
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def page_client_for(client, personas):
    def make(persona: str | None):
        if persona is not None:
            client.force_login(personas[persona])
        return client

    return make


@pytest.fixture
def api_upload():
    """Upload a file to the `lab` collection through the API; returns the created document's JSON."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    def upload(client, name: str, content: bytes) -> dict:
        response = client.post(
            reverse("api-document-list"),
            {"collection": "lab", "file": SimpleUploadedFile(name, content)},
            format="multipart",
        )
        assert response.status_code == 201, response.content
        return response.json()

    return upload


@pytest.fixture
def wait_for_ingest():
    """Poll a document through the API until the worker has finished with it; returns its last JSON."""
    import time

    from django.urls import reverse

    def wait(client, document_id: int, timeout: float = 120) -> dict:
        url = reverse("api-document-detail", kwargs={"document_id": document_id})
        stages = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = client.get(url).json()
            stages.append(data["job"]["stage"])
            if data["status"] in ("ready", "failed"):
                return data | {"seen_stages": stages}
            time.sleep(0.2)
        pytest.fail(f"document {document_id} did not finish within {timeout} s (stages seen: {stages[-5:]})")

    return wait


@pytest.fixture(scope="session")
def celery_worker_available():
    """The real worker started by the test command (portalctl.py test), answering on the broker."""
    from portal.celery import app

    replies = app.control.ping(timeout=3)
    if not replies:
        pytest.fail("no Celery worker answered; run the tests with `python3 portalctl.py test`, which starts one")
    return replies


def _worker_is_idle(app) -> bool:
    from django.conf import settings

    with app.connection_for_write() as connection:
        waiting = connection.default_channel.client.llen(settings.CELERY_TASK_DEFAULT_QUEUE)
    if waiting:
        return False
    inspect = app.control.inspect(timeout=1, limit=1)  # the test run has one worker: answer as soon as it does
    busy = [task for tasks in (inspect.active() or {}).values() for task in tasks]
    busy += [task for tasks in (inspect.reserved() or {}).values() for task in tasks]
    return not busy


@pytest.fixture(autouse=True)
def _default_language_after_test():
    """Each test starts in the default language (English). Django activates a request's language in the thread
    that serves it and leaves it active, so a test client's Chinese request would otherwise make the next test's
    own calls (a locator label, a message) Chinese."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _worker_idle_after_test(request):
    """After a transactional test that set the worker something to do, wait until it has nothing queued or running.

    Work a test sets off can outlive it (a keyword-index snapshot or a relink queued when its last change
    committed, even in a test that never waits for the worker); the database flush between tests would then
    deadlock with the worker's queries (seen in CI). Every task published during the test is counted."""
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction"))
    if transactional:
        # Set the database up before this fixture finishes its own set-up, so that its flush runs after the
        # wait below (pytest tears fixtures down in the reverse order of their set-up).
        request.getfixturevalue("transactional_db")
    published: list[str] = []

    def count(sender=None, **_kwargs) -> None:
        published.append(str(sender))

    from celery.signals import after_task_publish

    after_task_publish.connect(count, weak=False)
    try:
        yield
    finally:
        after_task_publish.disconnect(count)
    if transactional:
        # Jobs a test left "not queued" and relinks it left stale (the broker made to fail) would be sent by the
        # worker's own periodic sweep (apps/documents/worker_steps.py), which no publish signal here sees: take
        # them out of its reach first.
        from apps.documents.models import Collection, IngestJob
        from apps.documents.services.ingest import NOT_QUEUED

        IngestJob.objects.filter(error=NOT_QUEUED).update(error="left by a test")
        Collection.objects.filter(links_stale=True).update(links_stale=False)
    if not transactional or not (published or "celery_worker_available" in request.fixturenames):
        return
    import time

    from portal.celery import app

    deadline = time.monotonic() + 60
    idle_twice = 0
    while time.monotonic() < deadline and idle_twice < 2:
        idle_twice = idle_twice + 1 if _worker_is_idle(app) else 0
        time.sleep(0.1)


SHARED_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    """The public documents and benchmarks beside the checkout (../shared/corpus); CI has them too."""
    if not SHARED_CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {SHARED_CORPUS}; tests read real documents from it")
    return SHARED_CORPUS


@pytest.fixture(scope="session")
def chromium_path():
    path = os.environ.get("PORTAL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    need(bool(path), "Chromium is not installed (apt-get install chromium), so browser tests cannot run")
    return path


@pytest.fixture(autouse=True, scope="session")
def _plain_static_files(django_test_environment):
    """Templates resolve {% static %} without a collectstatic run (production uses the hashed manifest),
    a fast password hasher keeps the many persona logins cheap, and the login and API throttles are off (the suite
    logs in and calls the API far more often than a person; tests/test_throttle.py turns each on where it proves it)."""
    from django.test import override_settings

    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        PORTAL_LOGIN_THROTTLE=False,
        PORTAL_API_RATE="off",
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
    ):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, plus: before it is dropped, close the other sessions on it (the worker's,
    the live server's), which would otherwise make the drop fail. Only ever the test database."""
    yield
    from django.db import connection

    test_name = connection.settings_dict["NAME"]
    if test_name != connection.creation._get_test_db_name():
        return  # not switched to the test database: touch nothing
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [test_name],
        )
