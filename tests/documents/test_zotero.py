"""Zotero import from a real zotero.sqlite (the relevant part of Zotero's schema) and its storage folder."""

from __future__ import annotations

import shutil
import sqlite3
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from apps.documents.models import Document
from apps.documents.zotero import read_library

DEMO_PDF = Path(__file__).resolve().parents[2] / "demo" / "papers" / "bmc-trials-15-1-511.pdf"

# Column names and types as in Zotero 7's schema (system.sql / userdata.sql), reduced to what the import reads.
SCHEMA = """
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, dateAdded TIMESTAMP, dateModified TIMESTAMP,
                    clientDateModified TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL, version INT, synced INT,
                    UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID INT, PRIMARY KEY (itemID, fieldID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT,
                       UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1,
                           orderIndex INT NOT NULL DEFAULT 0,
                           PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex));
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT,
                              charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT,
                              lastProcessedModificationTime INT);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
INSERT INTO itemTypes VALUES (1,'note',NULL,0),(2,'book',NULL,1),(3,'attachment',NULL,0),(4,'journalArticle',NULL,1);
INSERT INTO fields VALUES (1,'title',NULL),(6,'date',NULL),(12,'publicationTitle',NULL),(26,'DOI',NULL);
INSERT INTO creatorTypes VALUES (1,'author'),(2,'editor');
"""


def _value(conn, text: str) -> int:
    conn.execute("INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)", (text,))
    return conn.execute("SELECT valueID FROM itemDataValues WHERE value = ?", (text,)).fetchone()[0]


def _item(conn, item_id: int, type_id: int, key: str, **fields) -> None:
    conn.execute("INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?,?,1,?)", (item_id, type_id, key))
    ids = {"title": 1, "date": 6, "publicationTitle": 12, "DOI": 26}
    for name, value in fields.items():
        conn.execute("INSERT INTO itemData VALUES (?,?,?)", (item_id, ids[name], _value(conn, value)))


@pytest.fixture
def zotero_dir(tmp_path) -> Path:
    root = tmp_path / "Zotero"
    (root / "storage" / "ATT1KEY1").mkdir(parents=True)
    shutil.copy(DEMO_PDF, root / "storage" / "ATT1KEY1" / "Chiarotto 2014 - core outcome set.pdf")
    conn = sqlite3.connect(root / "zotero.sqlite")
    conn.executescript(SCHEMA)
    _item(
        conn,
        1,
        4,
        "PAPER001",
        title="A core outcome set for clinical trials on non-specific low back pain",
        date="2014-12-25 December 25, 2014",
        publicationTitle="Trials",
        DOI="10.1186/1745-6215-15-511",
    )
    conn.execute("INSERT INTO creators VALUES (1,'Alessandro','Chiarotto',0),(2,'','Trials Group',1)")
    conn.execute("INSERT INTO itemCreators VALUES (1,1,1,0),(1,2,1,1)")
    _item(conn, 2, 3, "ATT1KEY1")
    conn.execute(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES "
        "(2, 1, 0, 'application/pdf', 'storage:Chiarotto 2014 - core outcome set.pdf')"
    )
    _item(conn, 3, 2, "BOOK0001", title="A book whose file is gone", date="1999")
    _item(conn, 4, 3, "ATT2KEY2")
    conn.execute(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES "
        "(4, 3, 0, 'application/pdf', 'storage:gone.pdf')"
    )
    _item(conn, 5, 4, "TRASHED1", title="In the trash")
    conn.execute("INSERT INTO deletedItems (itemID) VALUES (5)")
    _item(conn, 6, 1, "NOTE0001")
    conn.commit()
    conn.close()
    return root


def test_the_library_is_read_with_metadata_and_attachment_paths(zotero_dir):
    items = {item.key: item for item in read_library(zotero_dir)}
    assert set(items) == {"PAPER001", "BOOK0001"}  # notes, attachments and trashed items are not items to import
    paper = items["PAPER001"]
    assert (paper.year, paper.journal, paper.doi) == (2014, "Trials", "10.1186/1745-6215-15-511")
    assert paper.authors == ["Alessandro Chiarotto", "Trials Group"]
    assert paper.attachments[0].exists and paper.attachments[0].path.name.startswith("Chiarotto")
    assert not items["BOOK0001"].attachments[0].exists and items["BOOK0001"].year == 1999


def test_a_folder_without_zotero_sqlite_is_refused(tmp_path, collection):
    with pytest.raises(CommandError, match=r"zotero\.sqlite"):
        call_command("import_zotero", zotero_dir=str(tmp_path), collection="lab")


@pytest.mark.django_db
def test_dry_run_lists_and_changes_nothing(zotero_dir, collection):
    out, err = StringIO(), StringIO()
    call_command("import_zotero", zotero_dir=str(zotero_dir), collection="lab", dry_run=True, stdout=out, stderr=err)
    assert "would import PAPER001" in out.getvalue()
    assert "missing file, skipped: BOOK0001" in err.getvalue()
    assert not Document.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_import_through_the_worker_keeps_zoteros_metadata(zotero_dir, collection, celery_worker_available):
    out, err = StringIO(), StringIO()
    call_command("import_zotero", zotero_dir=str(zotero_dir), collection="lab", wait=True, stdout=out, stderr=err)
    document = Document.objects.get(zotero_key="PAPER001")
    deadline = time.monotonic() + 60
    while document.status not in ("ready", "failed") and time.monotonic() < deadline:
        time.sleep(0.2)
        document.refresh_from_db()
    assert document.status == "ready", document.error
    # ingestion filled what Zotero left empty but did not overwrite what Zotero said
    assert document.title == "A core outcome set for clinical trials on non-specific low back pain"
    assert document.authors == ["Alessandro Chiarotto", "Trials Group"]
    assert (document.year, document.journal, document.doi) == (2014, "Trials", "10.1186/1745-6215-15-511")
    assert document.chunk_count > 20
    assert "1 missing" in out.getvalue()
    # importing again adds nothing: the same bytes are already in the collection
    call_command("import_zotero", zotero_dir=str(zotero_dir), collection="lab", stdout=StringIO(), stderr=StringIO())
    assert Document.objects.count() == 1
