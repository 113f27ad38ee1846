"""Breaking news is the story's own call: its headline, kicker or dateline says so,
or a post marked breaking was published in the last hours; never a quoted post's
old #عاجل, and never ticked for the editor."""

from datetime import UTC, datetime

import pytest
from django.core.management import call_command

from articles.models import Article
from core.roles import EDITORS
from ingest.parse import parse_story
from ingest.services import story_import
from ingest.suggestions import breaking_reason
from tests.factories import member_of

from .conftest import SAMPLES, sample

OLD_POST = "21_ar_old_breaking_post.txt"  # its post: #عاجل, March 3, 2023
URL = "/admin/articles/article/import/"
# Two hours into March 3, 2023 in Dubai, and a year later.
POST_DAY = datetime(2023, 3, 2, 22, tzinfo=UTC)
A_YEAR_LATER = datetime(2024, 3, 3, 9, tzinfo=UTC)


def test_an_old_post_marked_breaking_does_not_make_the_story_breaking():
    """The quoted post says #عاجل, but a year ago: nothing is proposed."""
    story = parse_story(sample(OLD_POST))
    assert "عاجل" in story.posts[0].hashtags
    assert breaking_reason(story, now=A_YEAR_LATER) == ""


def test_a_post_marked_breaking_within_the_last_hours_proposes_breaking():
    """The same post, imported on the day it was published, proposes the flag."""
    story = parse_story(sample(OLD_POST))
    assert "published within the last 6 hours" in breaking_reason(story, now=POST_DAY)


def test_a_recent_post_not_marked_breaking_proposes_nothing():
    """A post from today without #عاجل is news, not a breaking flag."""
    text = sample(OLD_POST).replace("#عاجل | ", "")
    assert breaking_reason(parse_story(text), now=POST_DAY) == ""


@pytest.mark.parametrize(
    "text",
    [
        "عاجل: انهيار جسر قديم فوق الوادي\n\nانهار صباح اليوم جسر قديم.",
        "عاجل\nانهيار جسر قديم فوق الوادي في ساعات الصباح الأولى\n\nانهار جسر.",
        "انهيار جسر قديم فوق الوادي\n\nعاجل - الوادي: انهار صباح اليوم جسر قديم.",
        "Breaking: old bridge collapses over the valley\n\nThe bridge fell today.",
    ],
    ids=["headline", "kicker", "dateline", "english headline"],
)
def test_the_storys_own_breaking_label_proposes_breaking(text):
    """عاجل/Breaking heading the headline, the kicker or the dateline."""
    assert breaking_reason(parse_story(text), now=A_YEAR_LATER)


def test_breaking_as_a_word_of_the_headline_is_not_a_label():
    """ "Breaking the silence" opens a sentence; it labels nothing."""
    text = "Breaking the silence over the old bridge\n\nEngineers spoke today."
    assert breaking_reason(parse_story(text), now=A_YEAR_LATER) == ""


@pytest.mark.django_db
def test_the_import_service_does_not_propose_an_old_posts_breaking(newsroom_sources):
    """Through the service: the preview proposes no flag; the draft is not breaking."""
    editor = member_of(EDITORS)
    result = story_import(
        by=editor, text=sample(OLD_POST), dry_run=True, now=A_YEAR_LATER
    )
    assert not result.breaking
    article = story_import(by=editor, text=sample(OLD_POST), now=A_YEAR_LATER).article
    assert not article.is_breaking


@pytest.mark.django_db
def test_the_import_page_never_ticks_breaking_even_when_proposed(
    desk_client, newsroom_sources
):
    """A plain editor sees why the flag is proposed, with the box left unticked."""
    text = sample(OLD_POST).replace("هيئة الطرق تفتتح", "عاجل: هيئة الطرق تفتتح")
    response = desk_client.post(URL, {"text": text})
    content = response.content.decode()
    assert response.status_code == 200
    assert "The story&#x27;s own headline or dateline says it is breaking" in content
    box = content[
        content.index('name="breaking"') - 120 : content.index('name="breaking"') + 80
    ]
    assert 'type="checkbox"' in box and "checked" not in box


@pytest.mark.django_db
def test_the_import_page_says_nothing_of_breaking_for_an_old_post(
    desk_client, newsroom_sources
):
    """The seed's situation: an old #عاجل post; the page proposes no flag."""
    content = desk_client.post(URL, {"text": sample(OLD_POST)}).content.decode()
    assert "breaking news" not in content.split('name="breaking"')[0].lower()
    assert 'class="ingest-breaking"' not in content


@pytest.mark.django_db
def test_the_command_accepting_everything_leaves_an_old_post_unflagged(
    newsroom_sources, capsys
):
    """import_story --accept-all makes a draft that does not head every page."""
    member_of(EDITORS, username="desk")
    call_command("import_story", "--user", "desk", "--accept-all", SAMPLES / OLD_POST)
    assert "proposed: breaking news" not in capsys.readouterr().out
    assert not Article.objects.get().is_breaking
