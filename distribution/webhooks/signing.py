"""Signatures in Standard Webhooks' scheme (standardwebhooks.com): an HMAC-SHA256
over "<id>.<timestamp>.<body>" with the endpoint's secret, sent as the
`webhook-id`, `webhook-timestamp` and `webhook-signature` headers, so a partner can
check a delivery with the scheme's own libraries in any language."""

import base64
import secrets
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A fresh signing secret, 32 random bytes in the scheme's notation."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signed_headers(
    *, message_id: str, body: str, secrets_in_use: list[str], at: datetime | None = None
) -> dict[str, str]:
    """The headers that sign `body`: one signature per secret in use (two while a
    rotation's old secret is still honoured), space-separated as the scheme says."""
    at = (at or datetime.now(UTC)).astimezone(UTC)
    signatures = " ".join(
        Webhook(secret).sign(msg_id=message_id, timestamp=at, data=body)
        for secret in secrets_in_use
    )
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures,
    }
