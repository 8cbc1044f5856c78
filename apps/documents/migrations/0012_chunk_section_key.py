"""Chunk.section_key: the canonical section ("Methods", "References"), apart from the section as printed.

Until now `section` held the canonical name whenever one was recognised; those rows get it as their key (their
displayed name stays as it was until the document is read again)."""

from django.db import migrations, models

# apps/documents/parsing/sections.py CANONICAL_NAMES as of this migration (frozen here: migrations must not change
# when the code does).
CANONICAL = (
    "Abstract", "Keywords", "Introduction", "Objective", "Methods", "Results", "Results and Discussion", "Discussion",
    "Conclusions", "Limitations", "Abbreviations", "Supplementary material", "Data availability", "Funding",
    "Author contributions", "Competing interests", "Acknowledgements", "References", "Appendix",
)  # fmt: skip


def keys_from_sections(apps, schema_editor):
    Chunk = apps.get_model("documents", "Chunk")
    for name in CANONICAL:
        Chunk.objects.filter(section=name).update(section_key=name)


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0011_document_text_encoding"),
    ]

    operations = [
        migrations.AddField(
            model_name="chunk",
            name="section_key",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.RunPython(keys_from_sections, migrations.RunPython.noop),
    ]
