# The app image: web (uvicorn, ASGI) and worker (Celery) run from it.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DEBUG=true python manage.py collectstatic --noinput \
 && useradd --system --home /app polo && chown -R polo /app/var 2>/dev/null || true
USER polo
EXPOSE 8000
CMD ["uvicorn", "polo.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", "--forwarded-allow-ips", "*", "--ws-max-size", "65536", "--ws-per-message-deflate", "false"]
