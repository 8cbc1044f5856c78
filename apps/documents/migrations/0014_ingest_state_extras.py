"""Jobs read before the reading extras (apps/documents/extensions.py) kept the references as "entries" and
"mentions" at the top of IngestJob.reading; they are kept under "extras" now, by the extra that read them. A job
stopped half-way across the upgrade goes on with its references."""

from django.db import migrations


def forwards(apps, schema_editor):
    IngestJob = apps.get_model("documents", "IngestJob")
    for job in IngestJob.objects.filter(reading__has_key="entries").iterator():
        state = dict(job.reading)
        references = {"entries": state.pop("entries"), "mentions": state.pop("mentions", [])}
        state["extras"] = {**state.get("extras", {}), "references": references}
        IngestJob.objects.filter(pk=job.pk).update(reading=state)


def backwards(apps, schema_editor):
    IngestJob = apps.get_model("documents", "IngestJob")
    for job in IngestJob.objects.filter(reading__has_key="extras").iterator():
        state = dict(job.reading)
        references = state.pop("extras").get("references") or {"entries": [], "mentions": []}
        IngestJob.objects.filter(pk=job.pk).update(reading={**state, **references})


class Migration(migrations.Migration):
    dependencies = [("documents", "0013_ingest_stage_ocr")]

    operations = [migrations.RunPython(forwards, backwards)]
