#!/bin/sh
# First start of the database volume: the owner role (migrations) and the app role (web, worker).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE polo_app LOGIN PASSWORD '${APP_DB_PASSWORD}';
GRANT CONNECT ON DATABASE "$POSTGRES_DB" TO polo_app;
SQL
