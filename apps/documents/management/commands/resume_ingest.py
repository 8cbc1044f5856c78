"""Queue again the documents whose ingestion was interrupted (the embedded broker keeps no queue on disk)."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from apps.documents.extensions import unsent_senders
from apps.documents.models import Document, DocumentStatus, IngestJob, JobStage
from apps.documents.services.ingest import FINISHED, ingest_continue, ingest_enqueue, ingest_requeue_unsent


class Command(BaseCommand):
    help = "Re-queue ingestion of documents left pending or processing by a stopped worker."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--unsent",
            action="store_true",
            help="only send the jobs and reference relinks that could not be queued while the broker was away (safe "
            "while workers run; the workers also do this themselves when they reconnect)",
        )

    def handle(self, *args, **options) -> None:
        if options["unsent"]:
            self.stdout.write(f"Sent {ingest_requeue_unsent()} job(s) that could not be queued earlier.")
            for sender in unsent_senders():  # other apps' tasks (citations: relinks of reference links)
                self.stdout.write(f"Sent {sender.send()} {sender.what} that could not be queued.")
            return
        stuck = Document.objects.filter(status__in=[DocumentStatus.PENDING, DocumentStatus.PROCESSING])
        count = resumed = 0
        for document in stuck:
            job = IngestJob.objects.filter(document=document).exclude(stage__in=FINISHED).order_by("-pk").first()
            if job is not None and job.reading is not None and ingest_continue(job):
                resumed += 1  # read and partly embedded: go on from the last committed batch, not from the start
                continue
            with transaction.atomic():
                IngestJob.objects.filter(document=document).exclude(stage__in=[JobStage.DONE, JobStage.FAILED]).update(
                    stage=JobStage.FAILED, error="Interrupted: the portal stopped.", finished_at=timezone.now()
                )
                ingest_enqueue(document)
            count += 1
        if resumed:
            self.stdout.write(f"Resumed {resumed} interrupted document(s) from their last embedded batch.")
        if count:
            self.stdout.write(f"Re-queued {count} interrupted document(s).")
