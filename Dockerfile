FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=newsroom.settings.prod
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# collectstatic needs production settings but nothing real: these placeholders are
# discarded with the layer, and nothing is connected to.
RUN SECRET_KEY=collectstatic-only-placeholder-not-a-secret-0123456789abcdefXYZ \
    ALLOWED_HOSTS=build.invalid DATABASE_URL=postgres://build.invalid/build \
    CACHE_URL=redis://build.invalid:6379/0 TASKS_URL=redis://build.invalid:6379/1 \
    MEDIA_SERVED_BY=nginx \
    python manage.py collectstatic --no-input
# The app user owns media, static and the decode slots: compose's migrate step
# collects static files again into the shared volume, which starts as a copy of
# this folder.
RUN useradd --system --uid 1000 newsroom && mkdir -p /app/media /app/decode-slots \
    && chown -R newsroom /app/media /app/staticfiles /app/decode-slots
USER newsroom
EXPOSE 8000
# Workers and threads come from gunicorn.conf.py; the access log ends with the
# request id, the same one the app's JSON lines carry.
CMD ["gunicorn", "-c", "gunicorn.conf.py", "newsroom.wsgi:application", \
     "--access-logfile", "-", \
     "--access-logformat", "%(h)s %(t)s \"%(r)s\" %(s)s %(b)s %(M)sms %({x-request-id}o)s"]
