"""The same copy imported twice is flagged, posts or no posts: the comparison reads
the story's own text, not the body the import rendered (which places its posts)."""

from io import StringIO

import pytest
from django.core.management import call_command

from core.roles import EDITORS
from ingest.problems import StoryImportError
from ingest.services import story_import
from tests.factories import member_of

from .conftest import SAMPLES, sample

pytestmark = pytest.mark.django_db

WITH_POST = "21_ar_old_breaking_post.txt"  # an X post in copied text
WITH_EMBED = "24_ar_x_embed_code.txt"  # an X post in embed code
URL = "/admin/articles/article/import/"


@pytest.mark.parametrize("name", [WITH_POST, WITH_EMBED])
def test_a_story_carrying_a_post_is_flagged_the_second_time(name, newsroom_sources):
    """The second import names the first draft, whose body places the post."""
    editor = member_of(EDITORS)
    first = story_import(by=editor, text=sample(name)).article
    assert '<figure data-post="' in first.body_ar
    with pytest.raises(StoryImportError) as caught:
        story_import(by=editor, text=sample(name))
    (problem,) = caught.value.problems
    assert problem.code == "duplicate" and dict(problem.params) == {
        "article_id": first.pk
    }


def test_a_story_whose_linked_post_was_embedded_is_flagged_the_second_time(
    newsroom_sources,
):
    """A post embedded from a link in the prose is not copy either."""
    from ingest.result import Confirmation

    editor = member_of(EDITORS)
    text = sample("20_ar_proposals.txt")
    preview = story_import(by=editor, text=text, dry_run=True)
    confirmation = Confirmation(embed_links=[preview.story.link_posts[0].url])
    story_import(by=editor, text=text, confirmation=confirmation)
    again = story_import(by=editor, text=text, dry_run=True, allow_duplicate=True)
    assert again.duplicate_of is not None


def test_the_import_page_flags_a_story_with_a_post_as_a_duplicate(
    desk_client, newsroom_sources
):
    """A plain editor previewing it again is told, and offered to import anyway."""
    story_import(by=member_of(EDITORS), text=sample(WITH_POST))
    content = desk_client.post(URL, {"text": sample(WITH_POST)}).content.decode()
    assert "This story was already imported as article" in content
    assert 'name="allow_duplicate"' in content


def test_the_command_refuses_a_story_with_a_post_imported_twice(newsroom_sources):
    """import_story exits non-zero the second time, with the duplicate's code."""
    member_of(EDITORS, username="desk")
    path = str(SAMPLES / WITH_POST)
    call_command("import_story", "--user", "desk", path, stdout=StringIO())
    err = StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command(
            "import_story", "--user", "desk", path, stdout=StringIO(), stderr=err
        )
    assert caught.value.code == 1 and "already imported" in err.getvalue()
