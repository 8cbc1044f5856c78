from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.documents.models import Role


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
