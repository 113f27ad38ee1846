import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.prod")
django_application = get_wsgi_application()

# Imported once Django is set up (get_wsgi_application() does it): cached pages are
# answered in front of Django's request handling (publishing/page_cache_wsgi.py).
from publishing.page_cache_wsgi import PageCacheApplication  # noqa: E402

application = PageCacheApplication(django_application)
