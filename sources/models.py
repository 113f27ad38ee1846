"""News outlets we report from or republish, and how each article credits them."""

from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from arabic import search_fold
from arabic.slugs import unique_slug
from articles.models import Platform
from core.text import lines
from images.uploads import AnonymousName


def clean_domain(value: str) -> str:
    """A bare lower-case host name from a domain or URL an editor typed."""
    value = value.strip().lower()
    host = urlsplit(value if "//" in value else f"//{value}").hostname or ""
    return host.removeprefix("www.")


class SourceQuerySet(models.QuerySet):
    def for_domain(self, url_or_domain: str) -> "Source | None":
        """The source that owns the host of a URL or domain, sub-domains included."""
        host = clean_domain(url_or_domain)
        if not host:
            return None
        # Outlets number in the hundreds, so matching in Python stays cheap and
        # avoids database-specific regular expressions.
        for source in self.exclude(domains=""):
            if any(host == d or host.endswith("." + d) for d in source.domain_list):
                return source
        return None


class Source(models.Model):
    """A news outlet: newspaper, website, agency or broadcaster."""

    class Kind(models.TextChoices):
        NEWSPAPER = "newspaper", _("Newspaper")
        WEBSITE = "website", _("News website")
        AGENCY = "agency", _("News agency")
        BROADCASTER = "broadcaster", _("Broadcaster")
        MAGAZINE = "magazine", _("Magazine")
        OTHER = "other", _("Other")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("slug"), max_length=100, unique=True, allow_unicode=True, blank=True
    )
    kind = models.CharField(
        _("kind"), max_length=20, choices=Kind, default=Kind.WEBSITE
    )
    aliases = models.TextField(
        _("aliases"),
        blank=True,
        help_text=_(
            "Short names used in attribution lines, one per line "
            "(e.g. موقع 24, 24.ae, أ ف ب)."
        ),
    )
    homepage = models.URLField(_("homepage"), blank=True)
    domains = models.TextField(
        _("domains"),
        blank=True,
        help_text=_("Web domains of the outlet, one per line (e.g. aawsat.com)."),
    )
    country = models.CharField(_("country"), max_length=100, blank=True)
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        help_text=_("Main publishing language code, e.g. ar or en."),
    )
    logo = models.ImageField(
        _("logo"), upload_to=AnonymousName("sources/logos"), blank=True
    )
    terms = models.TextField(
        _("usage terms"),
        blank=True,
        help_text=_("What we may republish from this outlet and how to credit it."),
    )
    # The parts of the usage terms a page can honour by itself.
    credit_as = models.CharField(
        _("credit as"),
        max_length=200,
        blank=True,
        help_text=_(
            "The credit wording the outlet requires (e.g. © AFP); shown instead of "
            "its name in attribution lines."
        ),
    )
    link_required = models.BooleanField(
        _("link to the original required"),
        default=False,
        help_text=_(
            "Attribution lines always link to the original article (or, without "
            "its address, to the outlet's homepage)."
        ),
    )
    search_text = models.TextField(editable=False, blank=True)

    objects = SourceQuerySet.as_manager()

    # What the source page and attribution lines show (read by the identity gate).
    public_fields = (
        "name",
        "slug",
        "aliases",
        "homepage",
        "domains",
        "country",
        "logo",
        "credit_as",
    )
    # Every source has a page, whether or not a public story credits it yet.
    always_public = True

    class Meta:
        ordering = ["name"]
        verbose_name = _("source")
        verbose_name_plural = _("sources")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("sources:detail", kwargs={"slug": self.slug})

    @property
    def alias_list(self) -> list[str]:
        return lines(self.aliases)

    @property
    def domain_list(self) -> list[str]:
        return lines(self.domains)

    def names(self) -> list[str]:
        """Every name the outlet goes by: its names in both languages and aliases."""
        names = [self.name_ar, self.name_en, *self.alias_list]  # type: ignore[attr-defined]
        return [name for name in dict.fromkeys(names) if name]

    def clean(self) -> None:
        domains = [clean_domain(line) for line in self.domain_list]
        if any(not domain or "." not in domain for domain in domains):
            raise ValidationError(
                {"domains": _("Each line must be a domain such as aawsat.com.")}
            )
        self.domains = "\n".join(dict.fromkeys(domains))
        taken = sorted(set(domains) & _all_domains(exclude=self.pk))
        if taken:
            raise ValidationError(
                {
                    "domains": _("Already listed for another source: %(domains)s")
                    % {"domains": ", ".join(taken)}
                }
            )

    def derive_fields(self) -> None:
        """Fill the slug (when empty) and the folded names (save() and bulk writers)."""
        if not self.slug:
            self.slug = unique_slug(
                type(self).objects.exclude(pk=self.pk),
                self.name_en or self.name,  # type: ignore[attr-defined]
            )
        for name, value in self.search_columns().items():
            setattr(self, name, value)

    def search_columns(self) -> dict[str, str]:
        """The folded names and domains the admin's search reads."""
        return {
            "search_text": search_fold(" ".join([*self.names(), *self.domain_list]))
        }

    def save(self, *args, **kwargs) -> None:
        self.derive_fields()
        super().save(*args, **kwargs)


def _all_domains(*, exclude: int | None) -> set[str]:
    domains: set[str] = set()
    for text in Source.objects.exclude(pk=exclude).values_list("domains", flat=True):
        domains.update(lines(text))
    return domains


class SocialAccount(models.Model):
    """An outlet's account on a social platform, e.g. X @aawsat_News."""

    source = models.ForeignKey(
        Source, on_delete=models.CASCADE, related_name="social_accounts"
    )
    platform = models.CharField(_("platform"), max_length=20, choices=Platform)
    handle = models.CharField(
        _("handle"), max_length=100, help_text=_("Without the @, e.g. aawsat_News.")
    )
    url = models.URLField(_("profile URL"), blank=True)

    public_fields = ("handle", "url")

    class Meta:
        verbose_name = _("social account")
        verbose_name_plural = _("social accounts")
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "handle"], name="unique_social_account"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_platform_display()} @{self.handle}"

    def save(self, *args, **kwargs) -> None:
        self.handle = self.handle.strip().lstrip("@")
        super().save(*args, **kwargs)


class Attribution(models.Model):
    """How an article credits a source, and whether its canonical is the original."""

    class Role(models.TextChoices):
        ORIGINAL = "original", _("Original reporting")
        REPUBLISHED = "republished", _("Republished from")
        VIA = "via", _("Via")
        CITED = "cited", _("Cited")

    article = models.ForeignKey(
        "articles.Article", on_delete=models.CASCADE, related_name="attributions"
    )
    source = models.ForeignKey(
        Source,
        on_delete=models.PROTECT,
        related_name="attributions",
        verbose_name=_("source"),
    )
    role = models.CharField(
        _("role"), max_length=20, choices=Role, default=Role.REPUBLISHED
    )
    original_url = models.URLField(_("original URL"), max_length=500, blank=True)
    original_published_on = models.DateField(
        _("original published on"),
        null=True,
        blank=True,
        help_text=_("When the outlet published the original, if the copy says."),
    )
    is_canonical = models.BooleanField(
        _("canonical is the original"),
        default=False,
        help_text=_("Point search engines at the original article instead of ours."),
    )
    position = models.PositiveSmallIntegerField(_("order"), default=0)

    public_fields = ("original_url",)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = _("attribution")
        verbose_name_plural = _("attributions")
        constraints = [
            models.UniqueConstraint(
                fields=["article"],
                condition=models.Q(is_canonical=True),
                name="one_canonical_attribution_per_article",
            ),
            models.UniqueConstraint(
                fields=["article", "source", "role"], name="unique_attribution_role"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()}: {self.source}"

    def clean(self) -> None:
        if self.is_canonical and not self.original_url:
            raise ValidationError(
                {"original_url": _("A canonical attribution needs the original URL.")}
            )
