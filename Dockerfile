FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=newsroom.settings.prod
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# collectstatic needs settings but no real secret; the value is discarded with the layer.
RUN SECRET_KEY=collectstatic-only-placeholder-key-0123456789abcdef ALLOWED_HOSTS=* \
    python manage.py collectstatic --no-input
RUN useradd --system --uid 1000 newsroom && mkdir -p /app/media && chown newsroom /app/media
USER newsroom
EXPOSE 8000
CMD ["gunicorn", "-c", "gunicorn.conf.py", "--access-logfile", "-", "newsroom.wsgi:application"]
