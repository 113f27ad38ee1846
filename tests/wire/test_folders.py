"""A drop folder is inside WIRE_ROOT, links followed, when the channel is saved
and at every poll: no channel can empty /etc or the media originals."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from wire.channels import channel_poll
from wire.models import Channel, ChannelLog
from wire.services import channel_save

from .conftest import NOW, drop, sample_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def outside(tmp_path_factory):
    """A folder outside the root holding a file that must stay where it is."""
    folder = tmp_path_factory.mktemp("outside")
    (folder / "secret.json").write_bytes(sample_bytes("oasis_flash_en.json"))
    return folder


def refused_folder(channel: Channel, folder: str, by) -> str:
    channel.folder = folder
    with pytest.raises(ValidationError) as refusal:
        channel_save(channel=channel, by=by)
    return " ".join(refusal.value.message_dict["folder"])


def test_a_folder_outside_the_root_is_refused_when_saved(
    folder_channel, source_manager
):
    assert "must be inside" in refused_folder(folder_channel, "/etc", source_manager)


def test_a_folder_climbing_out_of_the_root_is_refused_when_saved(
    folder_channel, source_manager, wire_root
):
    climbing = f"{wire_root}/drop/../../../etc"
    assert "must be inside" in refused_folder(folder_channel, climbing, source_manager)


def test_a_link_inside_the_root_to_a_folder_outside_is_refused_when_saved(
    folder_channel, source_manager, wire_root, outside
):
    (wire_root / "agency").symlink_to(outside)
    link = str(wire_root / "agency")
    assert "must be inside" in refused_folder(folder_channel, link, source_manager)


def test_the_root_itself_is_no_drop_folder(folder_channel, source_manager, wire_root):
    assert "must be inside" in refused_folder(
        folder_channel, str(wire_root), source_manager
    )


def test_a_folder_inside_the_root_is_saved(folder_channel, source_manager, wire_root):
    folder_channel.folder = str(wire_root / "oasis")
    channel_save(channel=folder_channel, by=source_manager)
    assert Channel.objects.get().folder == str(wire_root / "oasis")


def test_a_folder_outside_the_root_is_never_polled(folder_channel, outside):
    """Saved before the rule (or behind the admin's back): refused at the poll,
    with a line in the log, and nothing moved."""
    Channel.objects.filter(pk=folder_channel.pk).update(folder=str(outside))
    folder_channel.refresh_from_db()
    report = channel_poll(folder_channel, now=NOW)
    assert report.files == 0
    assert sorted(p.name for p in outside.iterdir()) == ["secret.json"]
    entry = ChannelLog.objects.get()
    assert entry.level == "error" and "must be inside" in entry.message


def test_a_link_changed_after_saving_is_refused_at_the_poll(
    folder_channel, source_manager, wire_root, outside
):
    real = wire_root / "real"
    real.mkdir()
    link = wire_root / "agency"
    link.symlink_to(real)
    folder_channel.folder = str(link)
    channel_save(channel=folder_channel, by=source_manager)
    link.unlink()
    link.symlink_to(outside)
    channel_poll(folder_channel, now=NOW)
    assert sorted(p.name for p in outside.iterdir()) == ["secret.json"]
    assert "must be inside" in ChannelLog.objects.get().message


def test_a_linked_file_in_the_drop_folder_is_neither_read_nor_moved(
    folder_channel, outside
):
    drop_folder = folder_channel.folder
    (outside / "secret.json").rename(outside / "passwd.json")
    Path(drop_folder, "passwd.json").symlink_to(outside / "passwd.json")
    report = channel_poll(folder_channel, now=NOW)
    assert report.files == 0
    assert (outside / "passwd.json").exists()


def test_an_archive_linked_outside_the_folder_moves_nothing(folder_channel, outside):
    path = drop(folder_channel, "oasis_flash_en.json")
    (path.parent / "archive").symlink_to(outside)
    report = channel_poll(folder_channel, now=NOW)
    assert report.files == 0 and path.exists()
    assert sorted(p.name for p in outside.iterdir()) == ["secret.json"]
    assert "is a link" in ChannelLog.objects.get().message


def test_a_dangling_archive_link_moves_nothing(folder_channel, outside):
    path = drop(folder_channel, "oasis_flash_en.json")
    (path.parent / "archive").symlink_to(outside / "not-yet")
    channel_poll(folder_channel, now=NOW)
    assert path.exists() and not (outside / "not-yet").exists()
    assert "is a link" in ChannelLog.objects.get().message
