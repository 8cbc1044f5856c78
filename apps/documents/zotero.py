"""Reading a Zotero library (a copy of zotero.sqlite and its storage/ folder) without Zotero running.

Only the part of Zotero's schema the import needs: regular items with their fields and creators, and their
file attachments (`storage:NAME` under storage/KEY/, or a linked absolute path).
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

_SKIPPED_TYPES = ("attachment", "note", "annotation")
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


@dataclass
class ZoteroAttachment:
    key: str
    path: Path | None  # None when the attachment's path form is not one we can resolve
    raw_path: str
    content_type: str

    @property
    def exists(self) -> bool:
        return self.path is not None and self.path.is_file()


@dataclass
class ZoteroItem:
    item_id: int
    key: str
    item_type: str
    title: str = ""
    year: int | None = None
    journal: str = ""
    doi: str = ""
    authors: list[str] = field(default_factory=list)
    attachments: list[ZoteroAttachment] = field(default_factory=list)


class ZoteroError(Exception):
    pass


def _copy_database(zotero_dir: Path) -> Path:
    source = zotero_dir / "zotero.sqlite"
    if not source.is_file():
        raise ZoteroError(f"{source} not found: --zotero-dir must be Zotero's data folder")
    # Zotero keeps the file locked while it runs; a copy can be read at any time.
    target = Path(tempfile.mkdtemp(prefix="zotero-")) / "zotero.sqlite"
    shutil.copyfile(source, target)
    return target


def read_library(zotero_dir: Path) -> list[ZoteroItem]:
    copy = _copy_database(zotero_dir)
    try:
        conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        try:
            return list(_items(conn, zotero_dir))
        except sqlite3.DatabaseError as exc:
            raise ZoteroError(f"zotero.sqlite could not be read: {exc}") from None
        finally:
            conn.close()
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)


def _items(conn: sqlite3.Connection, zotero_dir: Path) -> Iterator[ZoteroItem]:
    placeholders = ",".join("?" * len(_SKIPPED_TYPES))
    rows = conn.execute(
        f"""SELECT i.itemID, i.key, t.typeName FROM items i JOIN itemTypes t USING (itemTypeID)
            WHERE t.typeName NOT IN ({placeholders})
              AND i.itemID NOT IN (SELECT itemID FROM deletedItems)
            ORDER BY i.itemID""",
        _SKIPPED_TYPES,
    ).fetchall()
    for item_id, key, item_type in rows:
        item = ZoteroItem(item_id=item_id, key=key, item_type=item_type)
        fields = dict(
            conn.execute(
                """SELECT f.fieldName, v.value FROM itemData d JOIN fields f USING (fieldID)
               JOIN itemDataValues v USING (valueID) WHERE d.itemID = ?""",
                (item_id,),
            )
        )
        item.title = fields.get("title", "")
        item.journal = fields.get("publicationTitle", "") or fields.get("bookTitle", "")
        item.doi = fields.get("DOI", "")
        if match := _YEAR.search(fields.get("date", "")):
            item.year = int(match.group(1))
        item.authors = [
            " ".join(part for part in (first, last) if part) if mode == 0 else last
            for first, last, mode in conn.execute(
                """SELECT c.firstName, c.lastName, c.fieldMode FROM itemCreators ic JOIN creators c USING (creatorID)
                   WHERE ic.itemID = ? ORDER BY ic.orderIndex""",
                (item_id,),
            )
        ]
        for att_key, raw_path, content_type in conn.execute(
            """SELECT i.key, a.path, COALESCE(a.contentType, '') FROM itemAttachments a JOIN items i USING (itemID)
               WHERE a.parentItemID = ? AND a.path IS NOT NULL
                 AND a.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY a.itemID""",
            (item_id,),
        ):
            item.attachments.append(
                ZoteroAttachment(att_key, _resolve(zotero_dir, att_key, raw_path), raw_path, content_type)
            )
        yield item


def _resolve(zotero_dir: Path, attachment_key: str, raw_path: str) -> Path | None:
    if raw_path.startswith("storage:"):
        return zotero_dir / "storage" / attachment_key / raw_path.removeprefix("storage:")
    if raw_path.startswith("attachments:"):
        return None  # relative to a "linked attachment base directory" only Zotero's prefs know
    return Path(raw_path)
