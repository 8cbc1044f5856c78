from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.documents.files import CONTENT_TYPES
from apps.documents.models import DocumentStatus, Role
from apps.documents.selectors import DEFAULT_DOCUMENT_SORT


class MemberAddForm(forms.Form):
    user = forms.CharField(label=_("User name or e-mail"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.VIEWER)

    def clean_user(self):
        value = self.cleaned_data["user"].strip()
        users = get_user_model().objects.filter(Q(username__iexact=value) | Q(email__iexact=value), is_active=True)
        if users.count() != 1:
            raise forms.ValidationError(
                _("No single active account has that user name or e-mail; an administrator can create it.")
            )
        return users.get()


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


class DocumentListForm(forms.Form):
    """The filters and the order of a collection's document list (the page's query string; the API takes the same
    names, apps/documents/api/params.py)."""

    SORT_CHOICES = [
        ("-added", _("Newest first")),
        ("added", _("Oldest first")),
        ("title", _("Title A–Z")),
        ("-title", _("Title Z–A")),
        ("-year", _("Year, newest first")),
        ("year", _("Year, oldest first")),
        ("status", _("Status")),
    ]

    q = forms.CharField(label=_("Title or file name"), required=False, max_length=200)
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("Any status")), *DocumentStatus.choices]
    )
    doc_type = forms.ChoiceField(
        label=_("Type"), required=False, choices=[("", _("Any type")), *((t, t.upper()) for t in CONTENT_TYPES)]
    )
    sort = forms.ChoiceField(label=_("Sort"), required=False, choices=SORT_CHOICES)

    @staticmethod
    def defaults() -> dict[str, str]:
        return {"q": "", "status": "", "doc_type": "", "sort": DEFAULT_DOCUMENT_SORT}

    def cleaned(self) -> dict[str, str]:
        """The valid form's choices, blanks filled with the defaults."""
        data = self.cleaned_data
        return {
            "q": data["q"].strip(),
            "status": data["status"],
            "doc_type": data["doc_type"],
            "sort": data["sort"] or DEFAULT_DOCUMENT_SORT,
        }
