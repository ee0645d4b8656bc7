"""Django admin works for every model: its list, its add form (where adding is allowed) and a change page."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse


@pytest.mark.django_db
def test_every_registered_model_has_working_admin_pages(client):
    call_command("demo_data", games=1)
    superuser = get_user_model().objects.create_superuser("root", "root@example.org", "a long admin passphrase")
    client.force_login(superuser)
    ours = [model for model in admin.site._registry if model._meta.app_label in ("games", "leagues")]
    assert len(ours) >= 10
    for model in admin.site._registry:
        meta = model._meta
        changelist = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert changelist.status_code == 200, meta.label
        if admin.site._registry[model].has_add_permission(changelist.wsgi_request):
            assert client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code == 200, meta.label
        first = model._default_manager.first()
        if first is not None:
            change = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk]))
            assert change.status_code == 200, meta.label
