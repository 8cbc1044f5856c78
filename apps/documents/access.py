"""Who may do what with a collection or a document.

Every page, API view, download and preview gets its object through these helpers, so the rule lives in one
place. Someone without a membership gets 404, never 403: collections cannot be discovered by probing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import F, QuerySet, Value
from django.http import Http404
from django.utils.translation import gettext as _

from apps.documents.models import Collection, Document, DocumentStatus, Membership, Role

AnyUser = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class Rights:
    role: str
    can_read: bool = True
    can_edit: bool = False  # upload, delete and re-ingest documents
    can_manage: bool = False  # add, change and remove members

    def require_edit(self) -> None:
        if not self.can_edit:
            raise PermissionDenied(_("Editors and managers of this collection may change its documents."))

    def require_manage(self) -> None:
        if not self.can_manage:
            raise PermissionDenied(_("Only managers of this collection may change its members."))


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


# A hidden object and a missing one must cost the same: one query that asks for the object AND the caller's
# membership, so both come back as the same empty result after the same work (no second query, no Python check
# that only an existing object reaches). The answer time then says nothing about what exists.


def _readable(queryset: QuerySet, user: AnyUser, membership_path: str) -> QuerySet | None:
    """`queryset` narrowed to what `user` may read, with the user's role as `access_role`; None: nothing."""
    if not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return queryset.annotate(access_role=Value(ADMIN_RIGHTS.role))
    # The membership join is both the filter and the role (one membership per user and collection).
    return queryset.filter(**{f"{membership_path}__user": user}).annotate(access_role=F(f"{membership_path}__role"))


def _rights_of(role: str) -> Rights:
    return ADMIN_RIGHTS if role == ADMIN_RIGHTS.role else _RIGHTS_BY_ROLE[role]


def get_collection_for_user(user: AnyUser, slug: str) -> tuple[Collection, Rights]:
    readable = _readable(Collection.objects.filter(slug=str(slug)), user, "memberships")
    collection = readable.first() if readable is not None else None
    if collection is None:
        raise Http404(_("No such collection."))
    return collection, _rights_of(collection.access_role)


def get_document_for_user(user: AnyUser, document_id: int | str) -> tuple[Document, Rights]:
    try:
        pk = int(document_id)
    except (ValueError, TypeError):
        raise Http404(_("No such document.")) from None
    documents = Document.objects.select_related("collection").filter(pk=pk)
    readable = _readable(documents, user, "collection__memberships")
    document = readable.first() if readable is not None else None
    if document is None:
        raise Http404(_("No such document."))
    return document, _rights_of(document.access_role)


class DocumentNotReady(Http404):
    """A document the caller may read that has no content to show yet, or none after a failed reading: the
    viewer and the preview have nothing (their pages and passages exist only for a READY document)."""

    def __init__(self, document: Document) -> None:
        super().__init__(_("This document is not ready: it is waiting to be read, being read, or could not be read."))
        self.document = document


def get_ready_document_for_user(user: AnyUser, document_id: int | str) -> tuple[Document, Rights]:
    """get_document_for_user, for what only a READY document has (the viewer, the preview API): anything else
    raises DocumentNotReady, a 404, after the same access check."""
    document, rights = get_document_for_user(user, document_id)
    if document.status != DocumentStatus.READY:
        raise DocumentNotReady(document)
    return document, rights
