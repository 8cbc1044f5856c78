"""The collections evaluate.py asks its sets in, loaded once per database and reused by slug (Django; only the APIs
both trees have: load_collection, document_add, document_ingest, document_delete, collection_delete)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path


class Library:
    """The collections the sets are asked in, loaded once per database and reused by slug on later runs."""

    def __init__(self, work_dir: Path, reload: bool, datasets, say: Callable[[str], None]) -> None:
        from apps.retrieval.search.service import query_embedder

        self.datasets = datasets  # evaluate.py's datasets module (where the corpus is, how a source is named)
        self.say = say
        self.work_dir = work_dir
        self.reload = reload  # read everything again: the parsers or the chunker changed since the last run
        self.embedder, problem = query_embedder()
        if self.embedder is None:
            sys.exit(problem)

    def beir(self, slug: str, folder: Path, remove: set[str] = frozenset()) -> tuple[str, dict[int, str]]:
        """A collection of a BEIR folder's corpus without the `remove` ids; (slug, document id → BEIR id)."""
        from apps.documents.models import Collection, Document
        from apps.documents.services.documents import document_delete
        from apps.evaluation.retrieval import load_collection
        from apps.retrieval.keyword import store

        order = [str(row["_id"]) for row in self.datasets.read_jsonl(folder / "corpus.jsonl")]
        expected = len(set(order) - set(remove))
        collection = Collection.objects.filter(slug=slug).first()
        stale = collection is not None and (self.reload or collection.documents.count() != expected)
        if stale:
            from apps.documents.services.documents import collection_delete

            collection_delete(collection=collection)  # half-made by an interrupted run
            collection = None
        if collection is None:
            self.say(f"loading {slug}: {len(order)} documents from {folder}")
            started = time.perf_counter()
            collection, _ = load_collection(folder, self.embedder, self.say)
            # The whole corpus goes in (its vectors cached under the same key), then the removed passages go out.
            names = dict(Document.objects.filter(collection=collection).values_list("original_name", "id"))
            for n, doc in enumerate(order):
                if doc in remove:
                    document_delete(document=Document.objects.get(pk=names[f"doc-{n}.md"]))
            Collection.objects.filter(pk=collection.pk).update(slug=slug, name=f"issue 15 evaluation: {slug}")
            self.say(f"loaded {slug} in {time.perf_counter() - started:.0f} s")
        collection = Collection.objects.get(slug=slug)
        store.refresh_snapshot(collection.pk, force=True)
        names = Document.objects.filter(collection=collection).values_list("id", "original_name")
        return slug, {pk: order[int(name.removeprefix("doc-").split(".")[0])] for pk, name in names}

    def files(self, slug: str, sources: list[str]) -> tuple[str, dict[int, str]]:
        """A collection of real files read by the ingest service, in this process; (slug, document id → path)."""
        from django.conf import settings

        from apps.documents.models import Collection, Document
        from apps.documents.services.ingest import document_ingest
        from apps.documents.services.uploads import document_add
        from apps.retrieval.keyword import store

        if self.reload and (old := Collection.objects.filter(slug=slug).first()) is not None:
            from apps.documents.services.documents import collection_delete

            collection_delete(collection=old)
        collection, _ = Collection.objects.get_or_create(slug=slug, defaults={"name": f"issue 15 evaluation: {slug}"})
        # No worker runs here: a job must not hand its rest to the queue after a few batches (a long PDF stayed
        # "processing", its questions unanswerable, until 2026-12-03).
        settings.PORTAL_INGEST_BATCHES_PER_TASK = 0
        names = {self.file_name(s): s for s in sources}
        for name, source in names.items():
            if Document.objects.filter(collection=collection, original_name=name, status="ready").exists():
                continue
            Document.objects.filter(collection=collection, original_name=name).delete()
            started = time.perf_counter()
            with open(self.datasets.source_path(source), "rb") as fh:
                added = document_add(collection=collection, name=name, fileobj=fh, force=True)
            document_ingest(job_id=added.document.latest_job().pk)
            document = Document.objects.get(pk=added.document.pk)
            self.say(f"ingested {source}: {document.status} {document.error} ({time.perf_counter() - started:.0f} s)")
        store.refresh_snapshot(collection.pk, force=True)
        rows = Document.objects.filter(collection=collection).values_list("id", "original_name")
        return slug, {pk: names[name] for pk, name in rows if name in names}

    def file_name(self, source: str) -> str:
        """A name unique in the collection: sci-pdf-jats/papers/X/paper.pdf → X.pdf; bench:documents/x.txt →
        bench-x.txt (a document kept in bench/answers/ never takes a corpus file's name)."""
        if source.startswith(self.datasets.BENCH):
            return "bench-" + Path(source.removeprefix(self.datasets.BENCH)).name
        path = Path(source)
        return f"{path.parent.name}{path.suffix}" if path.stem == "paper" else path.name
