"""What a partner may receive: one rule, as a queryset for lists and as a yes/no
for one story (which asks the same queryset, so the two cannot disagree).

A story is given to a partner when
- its section is among the partner's sections (or the partner names none);
- every source it credits is among the sources the partner takes (or it names
  none); our own copy, crediting no source, always qualifies;
- the partner holds the rights of every source it credits. A story's credits carry
  the sources' usage terms (credit wording, a required link to the original: the
  page honours them for every role, "according to" included), so a partner lacking
  the terms of any one of them never gets the story. This fails closed: a source
  with no terms written down still needs its rights recorded on the partner.

Status is not part of the rule: the release log and the story endpoint decide
what was released; this decides to whom.
"""

from django.db.models import Exists, OuterRef, QuerySet

from articles.models import Article
from sources.models import Attribution

from .models import Partner


def receivable(partner: Partner, articles: QuerySet | None = None) -> QuerySet:
    """`articles` (every story by default) that `partner` may receive.

    The partner's sections are read first (one query) and given to the database
    as values: a partner of one small section is then planned from that section's
    stories, not by reading every release to find them. Its sources are read in
    subqueries of the same query.
    """
    articles = Article.objects.all() if articles is None else articles
    sections = list(partner.sections.values_list("pk", flat=True))
    if sections:
        articles = articles.filter(section_id__in=sections)
    takes = Partner.sources.through.objects.filter(partner=partner)
    rights = Partner.rights_sources.through.objects.filter(partner=partner)
    credits = Attribution.objects.filter(article=OuterRef("pk"))
    return articles.filter(
        ~Exists(takes) | ~Exists(credits.exclude(source__in=takes.values("source_id")))
    ).exclude(Exists(credits.exclude(source__in=rights.values("source_id"))))


def partner_may_receive(partner: Partner, article: Article) -> bool:
    """Whether `partner` may receive `article` (two queries)."""
    if not partner.active:
        return False
    return receivable(partner, Article.objects.filter(pk=article.pk)).exists()
