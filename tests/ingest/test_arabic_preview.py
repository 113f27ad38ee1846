"""The Import page in the Arabic admin says everything in Arabic: credit roles,
languages, platforms and people's roles, with evidence cut between words."""

import html
import re

import pytest

from .conftest import sample

pytestmark = pytest.mark.django_db

URL = "/admin/articles/article/import/"
COPIED = "21_ar_old_breaking_post.txt"  # credited "المصدر: رويترز", an X post
TWO_MEN = "23_ar_two_men_apart.txt"


def preview(client, name: str) -> str:
    response = client.post(URL, {"text": sample(name)})
    assert response.status_code == 200
    return response.content.decode()


def test_the_credit_role_is_named_in_arabic(arabic_desk_client, newsroom_sources):
    """ "رويترز (منقول عن)", never the stored code "(republished)"."""
    content = preview(arabic_desk_client, COPIED)
    assert "(منقول عن)" in content and "republished" not in content


def test_the_language_is_named_in_arabic(arabic_desk_client, newsroom_sources):
    """The language row reads العربية, not the code "ar"."""
    content = preview(arabic_desk_client, COPIED)
    row = re.search(r"<th>اللغة</th><td>([^<]*)</td>", content)
    assert row and row.group(1) == "العربية"


def test_the_platform_is_named_as_the_admin_names_it(
    arabic_desk_client, newsroom_sources
):
    """The post's platform reads as its label, not the stored code "x"."""
    content = preview(arabic_desk_client, COPIED)
    assert '">إكس (تويتر)</td>' in content and '">x</td>' not in content


def test_proposed_people_and_their_roles_are_in_arabic(
    arabic_desk_client, newsroom_sources
):
    """Role choices, the nickname note and the words tying names read in Arabic."""
    content = preview(arabic_desk_client, TWO_MEN)
    assert '<option value="subject" selected>محور الخبر</option>' in content
    assert "لقب: يصير الاسم المعلن" in content and "يربط النص بينهما:" in content
    assert "The text ties them" not in content and "nickname" not in content


def test_evidence_in_the_preview_is_cut_between_words(
    arabic_desk_client, newsroom_sources
):
    """Each quoted evidence starts and ends with a whole word of the copy."""
    content = preview(arabic_desk_client, TWO_MEN)
    words = set(re.findall(r"\w+", sample(TWO_MEN)))
    quotes = [html.unescape(q) for q in re.findall(r"<q>([^<]*)</q>", content)]
    assert quotes
    for quote in quotes:
        inner = re.findall(r"\w+", quote)
        assert inner[0] in words and inner[-1] in words, quote
