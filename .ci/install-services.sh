#!/usr/bin/env bash
# Installs what a CI machine of this project lacks: pgvector for the machine's PostgreSQL, Redis if absent,
# Chromium for the browser tests. Idempotent: under a second when everything is already there.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

PGVER=$(ls /etc/postgresql | sort -V | tail -1); PGBIN=/usr/lib/postgresql/$PGVER/bin
"$PGBIN/pg_isready" -q -h 127.0.0.1 || pg_ctlcluster --skip-systemctl-redirect "$PGVER" main start
apt_updated=0
apt_update() { [ "$apt_updated" = 1 ] || { apt-get update -qq; apt_updated=1; }; }

if [ ! -f "/usr/share/postgresql/$PGVER/extension/vector.control" ]; then
  echo "ci: building pgvector for PostgreSQL $PGVER"
  apt_update
  apt-mark hold "postgresql-$PGVER" "postgresql-client-$PGVER" >/dev/null   # keep the running server as it is
  apt-get install -y -qq --no-install-recommends dpkg-dev "postgresql-server-dev-$PGVER" >/dev/null
  apt-mark unhold "postgresql-$PGVER" "postgresql-client-$PGVER" >/dev/null
  MIRROR=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
  SRC=/etc/apt/sources.list.d/pgvector-src.sources
  printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$MIRROR" > $SRC
  apt-get update -qq; B=$(mktemp -d)
  (cd "$B" && apt-get source -qq pgvector >/dev/null && cd pgvector-*/ \
     && make -s -j"$(nproc)" PG_CONFIG="$PGBIN/pg_config" && make -s install PG_CONFIG="$PGBIN/pg_config")
  rm -rf "$B" "$SRC"; apt-get update -qq
fi
# Created in template1 so that every database made later (the test database included) has it.
psql -h 127.0.0.1 -U postgres -qAt -v ON_ERROR_STOP=1 -d template1 -c 'CREATE EXTENSION IF NOT EXISTS vector'

if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  command -v redis-server >/dev/null || { apt_update; apt-get install -y -qq redis-server >/dev/null; }
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir "$(mktemp -d)"
fi

if [ ! -x /usr/bin/chromium ]; then
  echo "ci: installing Chromium"
  apt_update
  apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
# A CJK font: without one Chromium draws Chinese pages as boxes, and a browser walk (or a screenshot) cannot read them.
if ! fc-list 2>/dev/null | grep -qi "wenquanyi\|noto.*cjk"; then
  apt_update
  apt-get install -y -qq --no-install-recommends fonts-wqy-zenhei >/dev/null
fi
