#!/bin/sh
# Backups of the PostgreSQL database (docs/OPERATIONS.md). Compose's `backup` service runs it in the
# postgres image (`loop`); an operator runs it by hand through that service (`once`, `list`,
# `restore`). Each backup is one file of pg_dump's custom format, polo-YYYYMMDDTHHMMSSZ.dump (UTC),
# in $BACKUP_DIR; the files older than $BACKUP_KEEP_DAYS days are removed after each backup.
#
#   backup.sh loop             a backup now and every $BACKUP_INTERVAL_SECONDS (compose's service)
#   backup.sh once             one backup now, then the clean-up
#   backup.sh list             the backups kept, oldest first, with their sizes
#   backup.sh prune            only the clean-up
#   backup.sh restore FILE     FILE into the database $PGDATABASE names, which must be fresh (empty):
#                              in one transaction, stopping at the first error (nothing half-written)
#
# The database is libpq's: PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE.
set -eu

BACKUP_DIR=${BACKUP_DIR:-/backups}
BACKUP_KEEP_DAYS=${BACKUP_KEEP_DAYS:-14}
BACKUP_INTERVAL_SECONDS=${BACKUP_INTERVAL_SECONDS:-3600}

whole_number() {  # $1: name, $2: value. A typo in .env stops the service instead of keeping nothing.
  case $2 in
    '' | *[!0-9]* | 0) echo "backup: $1 must be a whole number of at least 1, got '$2'" >&2; exit 2 ;;
  esac
}
whole_number BACKUP_KEEP_DAYS "$BACKUP_KEEP_DAYS"
whole_number BACKUP_INTERVAL_SECONDS "$BACKUP_INTERVAL_SECONDS"

backup_once() {
  mkdir -p "$BACKUP_DIR"
  target="$BACKUP_DIR/polo-$(date -u +%Y%m%dT%H%M%SZ).dump"
  # Written under another name and renamed once pg_dump has finished: a .dump file is always whole.
  pg_dump --format=custom --file="$target.partial"
  mv "$target.partial" "$target"
  echo "backup: $target ($(wc -c <"$target") bytes)"
}

prune() {
  # Older than BACKUP_KEEP_DAYS whole days (by the file's time); a .partial left by a run that was
  # stopped half-way goes after a day.
  find "$BACKUP_DIR" -maxdepth 1 -type f -name 'polo-*.dump' -mmin +$((BACKUP_KEEP_DAYS * 1440)) -print -delete \
    | sed 's/^/backup: removed /'
  find "$BACKUP_DIR" -maxdepth 1 -type f -name 'polo-*.dump.partial' -mmin +1440 -print -delete \
    | sed 's/^/backup: removed /'
}

case ${1:-} in
  loop)
    trap 'exit 0' INT TERM  # docker stop: at once, between two backups
    while :; do
      backup_once || echo "backup: FAILED (pg_dump's message above); the next try in $BACKUP_INTERVAL_SECONDS s" >&2
      prune
      sleep "$BACKUP_INTERVAL_SECONDS" &
      wait $! || true
    done
    ;;
  once)
    backup_once
    prune
    ;;
  list)
    find "$BACKUP_DIR" -maxdepth 1 -type f -name 'polo-*.dump' | sort | while read -r file; do
      echo "$(basename "$file")  $(wc -c <"$file") bytes"
    done
    ;;
  prune)
    prune
    ;;
  restore)
    file=${2:?usage: backup.sh restore FILE (into the fresh database PGDATABASE names)}
    case $file in /*) ;; *) file="$BACKUP_DIR/$file" ;; esac
    # A fresh database only: restoring over tables that are there would mix two states.
    tables=$(psql -XAtc "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
    if [ "$tables" != 0 ]; then
      echo "backup: the database '${PGDATABASE:-}' has $tables tables: restore into a fresh one (createdb)" >&2
      exit 2
    fi
    # Owner and grants are this server's: compose's `migrate` job grants the app role its rights again.
    pg_restore --exit-on-error --single-transaction --no-owner --no-privileges --dbname="${PGDATABASE:?set PGDATABASE}" "$file"
    echo "backup: restored $file into ${PGDATABASE}"
    ;;
  *)
    echo "usage: backup.sh loop | once | list | prune | restore FILE" >&2
    exit 2
    ;;
esac
