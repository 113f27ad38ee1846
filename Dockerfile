FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=newsroom.settings.prod
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# collectstatic needs settings but no real secret; the value is discarded with the layer.
RUN SECRET_KEY=collectstatic-only-placeholder-key-0123456789abcdef ALLOWED_HOSTS=* \
    MEDIA_SERVED_BY=nginx python manage.py collectstatic --no-input
# The app user owns media and static: compose's migrate step collects static files
# again into the shared volume, which starts as a copy of this folder.
RUN useradd --system --uid 1000 newsroom && mkdir -p /app/media \
    && chown -R newsroom /app/media /app/staticfiles
USER newsroom
EXPOSE 8000
CMD ["gunicorn", "-c", "gunicorn.conf.py", "--access-logfile", "-", "newsroom.wsgi:application"]
