"""The admin's app list: stories first, and every app and model named in Arabic on
the Arabic admin, the libraries' included; the sign-in libraries only for
administrators."""

import re

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from core.roles import EDITORS, ROLES
from tests.factories import SuperuserFactory, member_of

pytestmark = pytest.mark.django_db

LATIN = re.compile(r"[A-Za-z]")
# Only administrators manage accounts, lockouts and two-factor devices.
ADMINISTRATORS_APPS = {"auth", "axes", "otp_totp", "otp_static", "otp_email"}


def app_list(user, language="ar") -> list[dict]:
    request = RequestFactory().get("/admin/")
    request.user = user
    with translation.override(language):
        return [
            {
                "app_label": app["app_label"],
                "name": str(app["name"]),
                "models": [
                    (model["object_name"], str(model["name"]))
                    for model in app["models"]
                ],
            }
            for app in admin.site.get_app_list(request)
        ]


def test_the_stories_app_comes_first_then_people_sources_and_images():
    """The desk's own apps lead; the administrators' come last."""
    labels = [app["app_label"] for app in app_list(SuperuserFactory())]
    assert labels[:4] == ["articles", "identity", "sources", "images"]
    assert labels[-5:] == ["auth", "axes", "otp_totp", "otp_static", "otp_email"]


def test_stories_come_first_in_their_app():
    """Articles, then the sections they are filed under."""
    [editorial] = [
        a for a in app_list(member_of(EDITORS)) if a["app_label"] == "articles"
    ]
    assert [name for name, _label in editorial["models"]][:2] == ["Article", "Section"]


def test_people_have_an_app_of_their_own_beside_the_stories():
    [people] = [a for a in app_list(member_of(EDITORS)) if a["app_label"] == "identity"]
    assert [name for name, _label in people["models"]] == ["Person"]


def test_every_app_and_model_an_administrator_sees_is_named_in_arabic():
    """No "Axes", "Otp_Totp" or "TOTP devices" on the Arabic admin."""
    apps = app_list(SuperuserFactory())
    names = [app["name"] for app in apps]
    names += [label for app in apps for _name, label in app["models"]]
    assert [name for name in names if LATIN.search(name)] == []


def test_the_libraries_have_english_names_on_the_english_admin():
    """The names are translations, not Arabic written into the code."""
    apps = {a["app_label"]: a for a in app_list(SuperuserFactory(), language="en")}
    assert apps["axes"]["name"] == "Login lockouts"
    assert apps["otp_totp"]["models"] == [("TOTPDevice", "Authenticator devices")]


@pytest.mark.parametrize("role", ROLES)
def test_no_role_sees_the_administrators_apps(role):
    """Lockouts, two-factor devices, users and groups are for administrators."""
    labels = {app["app_label"] for app in app_list(member_of(role))}
    assert labels & ADMINISTRATORS_APPS == set()


@pytest.mark.parametrize("role", ROLES)
def test_each_role_reads_its_apps_in_arabic(role):
    """A plain member of the group reads every name of their app list in Arabic."""
    apps = app_list(member_of(role))
    names = [app["name"] for app in apps]
    names += [label for app in apps for _name, label in app["models"]]
    assert names
    assert [name for name in names if LATIN.search(name)] == []


def test_the_two_factor_devices_page_is_titled_in_arabic(client):
    """The library's own page carries the Arabic model name too (title, crumbs)."""
    client.force_login(SuperuserFactory())
    url = reverse("admin:otp_totp_totpdevice_changelist")
    html = client.get(url).content.decode()
    assert "أجهزة المصادقة" in html
    assert "التحقق بخطوتين: تطبيقات المصادقة" in html
