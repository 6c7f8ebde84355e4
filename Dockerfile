# The app image: web (uvicorn, ASGI) and worker (Celery) run from it.
# Pyodide (package-lock.json), which the officials' screens run while the field has no link (issue 34).
FROM node:20-slim AS js
WORKDIR /js
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
COPY --from=js /js/node_modules/pyodide /app/node_modules/pyodide
# With DEBUG off, as production runs: the manifest of hashed names (ES module imports included) is
# written only then. The secret key is a build-time placeholder; the real one comes from .env.
RUN DEBUG=false SECRET_KEY=collectstatic-only-not-a-secret ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput \
 && useradd --system --home /app polo && chown -R polo /app/var 2>/dev/null || true
USER polo
EXPOSE 8000
# The proxies believed about the client's address and scheme (X-Forwarded-For, -Proto): those
# FORWARDED_ALLOW_IPS names, read by uvicorn (--proxy-headers without --forwarded-allow-ips takes
# this variable) and by the app alike. The image names none: every client is the address it
# connects from, even one on 127.0.0.1 (uvicorn's own default would have believed 127.0.0.1 and
# ::1). docker-compose.yml sets it to its nginx; behind another proxy, set it to that proxy.
ENV FORWARDED_ALLOW_IPS=""
# On SIGTERM: websockets closed with 1012 (service restart), at most 1 s for requests in flight.
CMD ["uvicorn", "polo.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", "--ws-max-size", "65536", "--ws-per-message-deflate", "false", "--timeout-graceful-shutdown", "1"]
