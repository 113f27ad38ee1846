"""How a form shows a service's refusal: where the refusal says it belongs, or
above the form when it says nothing."""

import pytest
from django import forms
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError

from core.service_forms import add_service_errors, form_field

pytestmark = pytest.mark.django_db


class GroupForm(forms.ModelForm):
    class Meta:
        model = Group
        fields = ("name",)


class PlacedRefusal(ValidationError):
    """A refusal that puts itself on the field it concerns."""

    def __init__(self):
        super().__init__("the name is taken", code="taken")

    def show_on(self, form, related=()) -> None:
        form.add_error("name", self.messages)


def bound_form() -> GroupForm:
    form = GroupForm(data={"name": "desk"})
    assert form.is_valid()
    return form


def test_a_refusal_that_says_nothing_of_its_place_shows_above_the_form():
    form = bound_form()
    add_service_errors(ValidationError("not now"), form)
    assert form.non_field_errors() == ["not now"]
    assert "name" not in form.errors


def test_a_refusal_that_knows_its_place_shows_there():
    form = bound_form()
    add_service_errors(PlacedRefusal(), form)
    assert form.errors["name"] == ["the name is taken"]
    assert not form.non_field_errors()


def test_an_attribute_without_a_field_of_its_own_has_none_on_the_form():
    assert form_field(bound_form(), "permissions") is None
    assert form_field(bound_form(), "name") == "name"
