from modeltranslation.translator import TranslationOptions, register

from .models import Article, Correction, Section


@register(Article)
class ArticleTranslationOptions(TranslationOptions):
    fields = (
        "headline",
        "kicker",
        "summary",
        "body",
        "slug",
        "hero_caption",
    )


@register(Section)
class SectionTranslationOptions(TranslationOptions):
    fields = ("name", "description")


@register(Correction)
class CorrectionTranslationOptions(TranslationOptions):
    fields = ("text",)
