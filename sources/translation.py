from modeltranslation.translator import TranslationOptions, register

from .models import Source


@register(Source)
class SourceTranslationOptions(TranslationOptions):
    fields = ("name",)
