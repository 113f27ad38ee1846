from modeltranslation.translator import TranslationOptions, register

from .models import Image


@register(Image)
class ImageTranslationOptions(TranslationOptions):
    fields = ("title", "caption", "alt_text")
