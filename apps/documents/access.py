"""Who may do what with a collection or a document.

Every page, API view, download and preview gets its object through these helpers, so the rule lives in one
place. Someone without a membership gets 404, never 403: collections cannot be discovered by probing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404

from apps.documents.models import Collection, Document, Membership, Role

AnyUser = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class Rights:
    role: str
    can_read: bool = True
    can_edit: bool = False  # upload, delete and re-ingest documents
    can_manage: bool = False  # add, change and remove members

    def require_edit(self) -> None:
        if not self.can_edit:
            raise PermissionDenied("Editors and managers of this collection may change its documents.")

    def require_manage(self) -> None:
        if not self.can_manage:
            raise PermissionDenied("Only managers of this collection may change its members.")


_RIGHTS_BY_ROLE = {
    Role.VIEWER: Rights(role=Role.VIEWER),
    Role.EDITOR: Rights(role=Role.EDITOR, can_edit=True),
    Role.MANAGER: Rights(role=Role.MANAGER, can_edit=True, can_manage=True),
}
# Administrators create and manage every collection (design.md, Access).
ADMIN_RIGHTS = Rights(role="admin", can_edit=True, can_manage=True)


def readable_collections(user: AnyUser) -> QuerySet[Collection]:
    """The collections `user` may read; the scope every listing and search starts from."""
    if not user.is_authenticated or not user.is_active:
        return Collection.objects.none()
    if user.is_superuser:
        return Collection.objects.all()
    return Collection.objects.filter(memberships__user=user)


def rights_for(user: AnyUser, collection: Collection) -> Rights | None:
    if not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return ADMIN_RIGHTS
    role = Membership.objects.filter(user=user, collection=collection).values_list("role", flat=True).first()
    return _RIGHTS_BY_ROLE.get(role) if role else None


def get_collection_for_user(user: AnyUser, slug: str) -> tuple[Collection, Rights]:
    collection = Collection.objects.filter(slug=slug).first()
    rights = rights_for(user, collection) if collection else None
    if collection is None or rights is None:
        raise Http404("No such collection.")
    return collection, rights


def get_document_for_user(user: AnyUser, document_id: int | str) -> tuple[Document, Rights]:
    try:
        document = Document.objects.select_related("collection").get(pk=int(document_id))
    except (Document.DoesNotExist, ValueError, TypeError):
        raise Http404("No such document.") from None
    rights = rights_for(user, document.collection)
    if rights is None:
        raise Http404("No such document.")
    return document, rights
