"""Every permission the newsroom checks, spelled once.

The code's checks (services, workflow, admin, settings) and the apps' grants to the
roles (each app's `roles.py`, core/roles.py) import these names, so a check and the
role meant to pass it cannot spell the permission differently. The permissions of
the apps below `articles` (people, images, the audit trail) are spelled in those
apps, which cannot import this module, and re-exported here so that the code above
reads every permission from one place. The custom permissions are declared on the
models (`Article.Meta`, `Person.Meta`); the rest are Django's view/add/change/delete
permissions of each model.

Plain strings, and no imports but the lower apps' permissions (plain strings too):
the settings read this module.
"""

from audit.permissions import VIEW_AUDITEVENT  # noqa: F401
from identity.permissions import (  # noqa: F401
    ADD_PERSON,
    CHANGE_PERSON,
    VIEW_LEGAL_NAME,
    VIEW_PERSON,
)
from images.permissions import (  # noqa: F401
    ADD_IMAGE,
    CHANGE_IMAGE,
    DELETE_IMAGE,
    VIEW_IMAGE,
)

# Stories: Django's, then the desk's own (Article.Meta.permissions).
VIEW_ARTICLE = "articles.view_article"
ADD_ARTICLE = "articles.add_article"
CHANGE_ARTICLE = "articles.change_article"
DELETE_ARTICLE = "articles.delete_article"
EDIT_ANY_ARTICLE = "articles.edit_any_article"
REVIEW_ARTICLE = "articles.review_article"
PUBLISH_ARTICLE = "articles.publish_article"
UNPUBLISH_ARTICLE = "articles.unpublish_article"
KILL_ARTICLE = "articles.kill_article"

# A story's parts, edited in the rows of the story form: Django shows an inline
# (and the service saves its rows) only for those holding its model's permissions.
VIEW_BYLINE = "articles.view_byline"
ADD_BYLINE = "articles.add_byline"
CHANGE_BYLINE = "articles.change_byline"
DELETE_BYLINE = "articles.delete_byline"
VIEW_ARTICLEPERSON = "articles.view_articleperson"
ADD_ARTICLEPERSON = "articles.add_articleperson"
CHANGE_ARTICLEPERSON = "articles.change_articleperson"
DELETE_ARTICLEPERSON = "articles.delete_articleperson"
VIEW_SOCIALPOST = "articles.view_socialpost"
ADD_SOCIALPOST = "articles.add_socialpost"
CHANGE_SOCIALPOST = "articles.change_socialpost"
DELETE_SOCIALPOST = "articles.delete_socialpost"

VIEW_CORRECTION = "articles.view_correction"
ADD_CORRECTION = "articles.add_correction"

VIEW_SECTION = "articles.view_section"
ADD_SECTION = "articles.add_section"
CHANGE_SECTION = "articles.change_section"


# Tags are django-taggit's model.
VIEW_TAG = "taggit.view_tag"
ADD_TAG = "taggit.add_tag"
CHANGE_TAG = "taggit.change_tag"
DELETE_TAG = "taggit.delete_tag"

VIEW_SOURCE = "sources.view_source"
ADD_SOURCE = "sources.add_source"
CHANGE_SOURCE = "sources.change_source"
DELETE_SOURCE = "sources.delete_source"
VIEW_ATTRIBUTION = "sources.view_attribution"
ADD_ATTRIBUTION = "sources.add_attribution"
CHANGE_ATTRIBUTION = "sources.change_attribution"
DELETE_ATTRIBUTION = "sources.delete_attribution"
VIEW_SOCIALACCOUNT = "sources.view_socialaccount"
ADD_SOCIALACCOUNT = "sources.add_socialaccount"
CHANGE_SOCIALACCOUNT = "sources.change_socialaccount"
DELETE_SOCIALACCOUNT = "sources.delete_socialaccount"

# Partners who receive stories through the content API (distribution), and their
# keys: a key is made (add) and revoked (change), never edited.
VIEW_PARTNER = "distribution.view_partner"
ADD_PARTNER = "distribution.add_partner"
CHANGE_PARTNER = "distribution.change_partner"
DELETE_PARTNER = "distribution.delete_partner"
VIEW_PARTNERKEY = "distribution.view_partnerkey"
ADD_PARTNERKEY = "distribution.add_partnerkey"
CHANGE_PARTNERKEY = "distribution.change_partnerkey"
VIEW_WEBHOOK = "distribution.view_webhookendpoint"
ADD_WEBHOOK = "distribution.add_webhookendpoint"
CHANGE_WEBHOOK = "distribution.change_webhookendpoint"
DELETE_WEBHOOK = "distribution.delete_webhookendpoint"
# Deliveries are made by the system; changing one is replaying it.
VIEW_DELIVERY = "distribution.view_delivery"
CHANGE_DELIVERY = "distribution.change_delivery"

# Accounts are Django's; no role holds these (superusers change users).
ADD_USER = "auth.add_user"
CHANGE_USER = "auth.change_user"

# The live desk (the live app): entries of a live coverage, and running it.
VIEW_LIVEENTRY = "live.view_liveentry"
ADD_LIVEENTRY = "live.add_liveentry"
CHANGE_LIVEENTRY = "live.change_liveentry"
DELETE_LIVEENTRY = "live.delete_liveentry"
RUN_LIVECOVERAGE = "live.change_livecoverage"

# The agency wire (wire app): channels for source managers, the incoming list and
# the Media Topic → section mapping for editors.
VIEW_CHANNEL = "wire.view_channel"
ADD_CHANNEL = "wire.add_channel"
CHANGE_CHANNEL = "wire.change_channel"
DELETE_CHANNEL = "wire.delete_channel"
VIEW_CHANNELLOG = "wire.view_channellog"
VIEW_AGENCYITEM = "wire.view_agencyitem"
VIEW_TOPICSECTION = "wire.view_topicsection"
ADD_TOPICSECTION = "wire.add_topicsection"
CHANGE_TOPICSECTION = "wire.change_topicsection"
DELETE_TOPICSECTION = "wire.delete_topicsection"

# Who signs in with a second factor (settings.OTP_REQUIRED_FOR_PERMISSIONS in
# production): whoever publishes or reads legal names, and whoever can make the
# server fetch from an address (wire channels), send to one (webhooks, replaying a
# delivery) or hand out access (partners, their keys). A stolen password of any of
# these is a way into the newsroom's network or its stories.
SECOND_FACTOR = (
    PUBLISH_ARTICLE,
    VIEW_LEGAL_NAME,
    ADD_CHANNEL,
    CHANGE_CHANNEL,
    ADD_WEBHOOK,
    CHANGE_WEBHOOK,
    CHANGE_DELIVERY,
    ADD_PARTNER,
    CHANGE_PARTNER,
    ADD_PARTNERKEY,
)
