from django.views.generic import TemplateView


class SourceView(TemplateView):
    template_name = "sources/source_detail.html"
