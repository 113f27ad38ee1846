"""The distribution app's verbs of the audit trail (the audit app imports this
module at startup)."""

from django.utils.translation import gettext_lazy as _

from audit.actions import register


class Action:
    """What the partner services record besides creating, changing and deleting."""

    KEY_CREATED = register("partner_key_created", _("Partner API key created"))
    KEY_REVOKED = register("partner_key_revoked", _("Partner API key revoked"))
    WEBHOOK_SECRET_ROTATED = register(
        "webhook_secret_rotated", _("Webhook signing secret rotated")
    )
    DELIVERY_REPLAYED = register("webhook_replayed", _("Webhook delivery replayed"))
