from modeltranslation.translator import TranslationOptions, register

from .models import LiveEntry


@register(LiveEntry)
class LiveEntryTranslationOptions(TranslationOptions):
    fields = ("headline", "body", "correction")
