"""Pages for collections: the list, one collection with its documents, its members."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.documents.access import get_collection_for_user
from apps.documents.forms import DocumentListForm, MemberAddForm, MemberRoleForm
from apps.documents.models import Membership
from apps.documents.selectors import attach_queue_positions, collection_documents, collections_with_counts
from apps.documents.services.uploads import UploadRejected, document_add


@login_required
def collection_list(request: HttpRequest) -> HttpResponse:
    collections = collections_with_counts(request.user)
    return render(request, "documents/collection_list.html", {"collections": collections})


DOCUMENTS_PER_PAGE = 25


@login_required
def collection_detail(request: HttpRequest, slug: str) -> HttpResponse:
    collection, rights = get_collection_for_user(request.user, slug)
    listing = DocumentListForm(request.GET)
    choices = listing.cleaned() if listing.is_valid() else DocumentListForm.defaults()
    documents = collection_documents(
        collection, status=choices["status"], doc_type=choices["doc_type"], text=choices["q"], sort=choices["sort"]
    )
    page = Paginator(documents, DOCUMENTS_PER_PAGE).get_page(request.GET.get("page"))
    attach_queue_positions(document.latest_job() for document in page)
    return render(
        request,
        "documents/collection_detail.html",
        {
            "collection": collection,
            "rights": rights,
            "documents": page,
            "page": page,
            "listing": listing,
            "filtered": any(choices[name] for name in ("status", "doc_type", "q")),
            "page_links": _page_links(request, page),
        },
    )


def _page_links(request: HttpRequest, page) -> dict[str, str]:
    """The previous and next pages of the list: this query string (filters, sort) with another page number."""

    def at(number: int) -> str:
        query = request.GET.copy()
        query["page"] = str(number)
        return f"{request.path}?{query.urlencode()}"

    return {
        "previous": at(page.previous_page_number()) if page.has_previous() else "",
        "next": at(page.next_page_number()) if page.has_next() else "",
    }


@login_required
@require_POST
def collection_upload(request: HttpRequest, slug: str) -> HttpResponse:
    collection, rights = get_collection_for_user(request.user, slug)
    rights.require_edit()
    files = request.FILES.getlist("files")
    if not files:
        messages.error(request, _("Choose one or more files to upload."))
    for upload in files:
        try:
            result = document_add(collection=collection, name=upload.name, fileobj=upload, user=request.user)
        except UploadRejected as exc:
            messages.error(request, str(exc))
        else:
            level = messages.WARNING if result.outcome == "duplicate" else messages.SUCCESS
            messages.add_message(request, level, result.message)
    return redirect(collection)


@login_required
@require_http_methods(["GET", "POST"])
def collection_members(request: HttpRequest, slug: str) -> HttpResponse:
    collection, rights = get_collection_for_user(request.user, slug)
    rights.require_manage()
    form = MemberAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.cleaned_data["user"]
        membership, created = Membership.objects.update_or_create(
            user=user, collection=collection, defaults={"role": form.cleaned_data["role"]}
        )
        role = membership.get_role_display().lower()
        added = _("%(user)s added as %(role)s.") if created else _("%(user)s is now %(role)s.")
        messages.success(request, added % {"user": user.get_username(), "role": role})
        return redirect("collection-members", slug=collection.slug)
    members = collection.memberships.select_related("user").order_by("user__username")
    return render(
        request,
        "documents/collection_members.html",
        {"collection": collection, "rights": rights, "members": members, "form": form},
    )


@login_required
@require_POST
def membership_update(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    collection, rights = get_collection_for_user(request.user, slug)
    rights.require_manage()
    membership = get_object_or_404(Membership, pk=membership_id, collection=collection)
    if request.POST.get("action") == "remove":
        if membership.user_id == request.user.pk:
            messages.error(request, _("You cannot remove yourself; ask another manager or an administrator."))
        else:
            membership.delete()
            messages.success(request, _("%(user)s was removed.") % {"user": membership.user.get_username()})
    else:
        form = MemberRoleForm(request.POST)
        if form.is_valid():
            membership.role = form.cleaned_data["role"]
            membership.save(update_fields=["role"])
            role = membership.get_role_display().lower()
            name = membership.user.get_username()
            messages.success(request, _("%(user)s is now %(role)s.") % {"user": name, "role": role})
    return redirect("collection-members", slug=collection.slug)
