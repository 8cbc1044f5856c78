"""Section weights became gentler (Abstract 1.5 → 1.05, Methods 1.2 → 1.0; see parsing/sections.py for why):
chunks stored with the old values get the new ones, so old and new documents rank alike."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("documents", "0006_document_centroid")]

    operations = [
        migrations.RunSQL(
            "UPDATE documents_chunk SET weight = 1.05 WHERE weight = 1.5; "
            "UPDATE documents_chunk SET weight = 1.0 WHERE weight = 1.2",
            reverse_sql=migrations.RunSQL.noop,
        )
    ]
