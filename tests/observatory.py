"""An Observatory-style header score, computed from one response's headers.

Modelled on Mozilla's HTTP Observatory (the scoring in its `grader` and the test
descriptions on developer.mozilla.org/en-US/observatory/docs/tests_and_scoring):
start at 100, take off for what is missing or unsafe, and add bonuses only when
the score is already at least 90. Stricter than the Observatory in three places
the newsroom asked for: a missing Cross-Origin-Resource-Policy,
Permissions-Policy or Cross-Origin-Opener-Policy each costs 5. HSTS preloading
earns nothing (the Observatory checks the browsers' preload list, which a test
cannot).
"""

import re
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

SESSION_COOKIE_NAMES = ("sessionid",)
ANTI_CSRF_COOKIE_NAMES = ("csrftoken",)
SIX_MONTHS = 15_768_000
PRIVATE_REFERRER_POLICIES = {
    "no-referrer",
    "same-origin",
    "strict-origin",
    "strict-origin-when-cross-origin",
}
UNSAFE_REFERRER_POLICIES = {"origin", "origin-when-cross-origin", "unsafe-url"}
# Sources that let any site's script in.
_INSECURE_SOURCES = {"*", "http:", "https:", "data:", "blob:", "filesystem:"}


@dataclass
class Score:
    points: int = 100
    bonus: int = 0
    findings: dict[str, int] = field(default_factory=dict)

    def add(self, finding: str, modifier: int) -> None:
        self.findings[finding] = modifier
        if modifier > 0:
            self.bonus += modifier
        else:
            self.points += modifier

    @property
    def total(self) -> int:
        # As in the Observatory, extra credit counts only for an already good page.
        return self.points + (self.bonus if self.points >= 90 else 0)

    def __str__(self) -> str:
        lines = [f"{self.total}:"]
        lines += [f"  {modifier:+d} {name}" for name, modifier in self.findings.items()]
        return "\n".join(lines)


def parse_csp(header: str) -> dict[str, list[str]]:
    policy: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            policy.setdefault(words[0].lower(), [word for word in words[1:]])
    return policy


def _score_csp(headers, score: Score) -> dict[str, list[str]]:
    header = headers.get("Content-Security-Policy")
    if not header:
        score.add("csp-not-implemented", -25)
        return {}
    policy = parse_csp(header)
    default = policy.get("default-src", [])
    scripts = policy.get("script-src", default)
    styles = policy.get("style-src", default)
    objects = policy.get("object-src", default)
    keyed = any(source.startswith(("'nonce-", "'sha")) for source in scripts)
    if "'unsafe-inline'" in scripts and not keyed:
        score.add("csp-implemented-with-unsafe-inline", -20)
    elif _INSECURE_SOURCES & set(scripts) or _INSECURE_SOURCES & set(objects):
        score.add("csp-implemented-with-insecure-scheme", -20)
    elif not scripts or not objects:
        # No script-src/object-src and no default-src: anything may load.
        score.add("csp-implemented-with-unsafe-inline", -20)
    elif "'unsafe-eval'" in scripts:
        score.add("csp-implemented-with-unsafe-eval", -10)
    elif "'unsafe-inline'" in styles:
        score.add("csp-implemented-with-unsafe-inline-in-style-src-only", 0)
    elif default == ["'none'"]:
        score.add("csp-implemented-with-no-unsafe-default-src-none", 10)
    else:
        score.add("csp-implemented-with-no-unsafe", 5)
    return policy


def _score_cookies(response, hsts: bool, score: Score) -> None:
    # Django adds Set-Cookie when the response is sent; rebuild those headers.
    cookies = SimpleCookie()
    for morsel in response.cookies.values():
        cookies.load(morsel.OutputString())
    if not cookies:
        score.add("cookies-not-found", 0)
        return
    worst = 5
    for name, morsel in cookies.items():
        session = name in SESSION_COOKIE_NAMES
        if session and not morsel["httponly"]:
            worst = min(worst, -30)
        if not morsel["secure"]:
            if session:
                worst = min(worst, -10 if hsts else -40)
            else:
                worst = min(worst, -5 if hsts else -20)
        samesite = (morsel["samesite"] or "").lower()
        if samesite and samesite not in {"strict", "lax", "none"}:
            worst = min(worst, -20)
        if name in ANTI_CSRF_COOKIE_NAMES and not samesite:
            worst = min(worst, -20)
        if not samesite:
            worst = min(worst, 0)
    score.add("cookies", worst)


def _score_hsts(headers, secure: bool, score: Score) -> bool:
    if not secure:
        score.add("hsts-not-implemented-no-https", -20)
        return False
    header = headers.get("Strict-Transport-Security", "")
    match = re.search(r"max-age=(\d+)", header)
    if not match:
        score.add("hsts-not-implemented", -20)
        return False
    if int(match[1]) < SIX_MONTHS:
        score.add("hsts-implemented-max-age-less-than-six-months", -10)
    else:
        score.add("hsts-implemented-max-age-at-least-six-months", 0)
    return True


def _score_sri(response, score: Score) -> None:
    if "html" not in response.headers.get("Content-Type", ""):
        score.add("sri-not-implemented-response-not-html", 0)
        return
    text = response.content.decode("utf-8", "replace")
    worst = 0
    for tag in re.findall(r"<script\b[^>]*\bsrc=[\"']?([^\"' >]+)[^>]*>", text, re.I):
        if tag.startswith(("http://", "//")):
            worst = min(worst, -50)
        elif tag.startswith("https://"):
            worst = min(worst, -5)
    score.add("sri", worst)


def observatory_score(response, *, secure: bool = True, redirects_http=None) -> Score:
    """Score `response` (a Django test response), got over HTTPS if `secure`.

    `redirects_http` is the answer to the same address over plain HTTP, when known.
    """
    headers = response.headers
    score = Score()
    policy = _score_csp(headers, score)
    hsts = _score_hsts(headers, secure, score)
    _score_cookies(response, hsts, score)

    if headers.get("Access-Control-Allow-Origin", "").strip() == "*":
        score.add(
            "cross-origin-resource-sharing-implemented-with-universal-access", -50
        )

    if redirects_http is not None:
        location = redirects_http.headers.get("Location", "")
        if redirects_http.status_code in (301, 302, 307, 308) and location.startswith(
            "https://"
        ):
            score.add("redirection-to-https", 0)
        else:
            score.add("redirection-missing", -20)

    referrer = headers.get("Referrer-Policy", "").lower()
    values = {value.strip() for value in referrer.split(",") if value.strip()}
    if not values:
        score.add("referrer-policy-not-implemented", 0)
    elif values & UNSAFE_REFERRER_POLICIES:
        score.add("referrer-policy-unsafe", -5)
    elif values <= PRIVATE_REFERRER_POLICIES:
        score.add("referrer-policy-private", 5)
    else:
        score.add("referrer-policy-no-referrer-when-downgrade", 0)

    _score_sri(response, score)

    if headers.get("X-Content-Type-Options", "").strip().lower() == "nosniff":
        score.add("x-content-type-options-nosniff", 0)
    else:
        score.add("x-content-type-options-not-implemented", -5)

    ancestors = policy.get("frame-ancestors")
    if ancestors in (["'none'"], ["'self'"]):
        score.add("x-frame-options-implemented-via-csp", 5)
    elif headers.get("X-Frame-Options", "").upper() in {"DENY", "SAMEORIGIN"}:
        score.add("x-frame-options-sameorigin-or-deny", 0)
    else:
        score.add("x-frame-options-not-implemented", -20)

    # The newsroom's additions (see the module docstring).
    corp = headers.get("Cross-Origin-Resource-Policy", "").strip().lower()
    if corp not in {"same-origin", "same-site", "cross-origin"}:
        score.add("cross-origin-resource-policy-not-implemented", -5)
    if not headers.get("Permissions-Policy"):
        score.add("permissions-policy-not-implemented", -5)
    coop = headers.get("Cross-Origin-Opener-Policy", "").strip().lower()
    if coop not in {"same-origin", "same-origin-allow-popups"}:
        score.add("cross-origin-opener-policy-not-implemented", -5)
    return score
