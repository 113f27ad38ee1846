from modeltranslation.translator import TranslationOptions, register

from .models import Person


@register(Person)
class PersonTranslationOptions(TranslationOptions):
    fields = ("description",)
