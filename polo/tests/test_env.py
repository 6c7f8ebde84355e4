"""Settings read from the environment fail loudly on bad values (polo/env.py)."""

import subprocess
import sys

import pytest

from polo.env import ConfigError, env_bool, env_choice, env_int, env_list
from polo.testing import BASE_DIR


def test_env_bool_reads_the_usual_spellings(monkeypatch):
    for raw, expected in [("1", True), ("true", True), ("Yes", True), ("0", False), ("off", False)]:
        monkeypatch.setenv("X_FLAG", raw)
        assert env_bool("X_FLAG") is expected


def test_env_bool_refuses_nonsense(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ConfigError, match="X_FLAG"):
        env_bool("X_FLAG")


def test_env_int_refuses_a_word_and_a_value_below_the_minimum(monkeypatch):
    monkeypatch.setenv("X_INT", "ten")
    with pytest.raises(ConfigError, match="integer"):
        env_int("X_INT", 1)
    monkeypatch.setenv("X_INT", "0")
    with pytest.raises(ConfigError, match="at least 1"):
        env_int("X_INT", 5, minimum=1)
    monkeypatch.setenv("X_INT", "7")
    assert env_int("X_INT", 5, minimum=1) == 7


def test_env_list_and_choice(monkeypatch):
    monkeypatch.setenv("X_LIST", "a.example, b.example,")
    assert env_list("X_LIST", []) == ["a.example", "b.example"]
    monkeypatch.setenv("X_LANG", "fr")
    with pytest.raises(ConfigError, match="X_LANG"):
        env_choice("X_LANG", "en", {"en", "es"})


def _settings_in_subprocess(env: dict, expr: str) -> subprocess.CompletedProcess:
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE']='polo.settings'; "
        f"from django.conf import settings; print({expr})"
    )
    clean = {
        k: v
        for k, v in __import__("os").environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}
    }
    return subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env={**clean, **env}, capture_output=True, text=True
    )


def test_production_settings_refuse_to_start_without_a_secret_key():
    result = _settings_in_subprocess({"DEBUG": "false"}, "settings.SECRET_KEY")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_an_unknown_time_zone_stops_the_app():
    result = _settings_in_subprocess({"DEBUG": "true", "TIME_ZONE": "Mars/Olympus"}, "settings.TIME_ZONE")
    assert result.returncode != 0
    assert "TIME_ZONE" in result.stderr


def test_embedded_defaults_are_sqlite_the_in_memory_layer_and_eager_celery(tmp_path):
    result = _settings_in_subprocess(
        {"DEBUG": "true", "POLO_VAR_DIR": str(tmp_path)},
        "settings.DATABASES['default']['ENGINE'], settings.CHANNEL_LAYERS['default']['BACKEND'], "
        "settings.CELERY_TASK_ALWAYS_EAGER",
    )
    assert result.returncode == 0, result.stderr
    assert "sqlite3" in result.stdout and "InMemoryChannelLayer" in result.stdout and "True" in result.stdout


def test_redis_url_switches_on_channels_redis_and_the_broker(tmp_path):
    result = _settings_in_subprocess(
        {
            "DEBUG": "true",
            "POLO_VAR_DIR": str(tmp_path),
            "REDIS_URL": "redis://127.0.0.1:6379/3",
            "DATABASE_URL": "postgres://u@127.0.0.1:5432/polo",
        },
        "settings.CHANNEL_LAYERS['default']['BACKEND'], settings.CELERY_BROKER_URL, settings.CELERY_TASK_ALWAYS_EAGER, "
        "settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['CONN_MAX_AGE'], "
        "settings.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['max_connections'], "
        "settings.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['socket_timeout'], "
        "settings.CACHES['default']['OPTIONS']['socket_timeout'], "
        "settings.CELERY_BROKER_TRANSPORT_OPTIONS['socket_timeout']",
    )
    assert result.returncode == 0, result.stderr
    layer, broker, eager, engine, conn_max_age, max_connections, *timeouts = result.stdout.split()
    assert layer == "channels_redis.core.RedisChannelLayer"
    assert (broker, eager) == ("redis://127.0.0.1:6379/3", "False")
    assert engine == "django.db.backends.postgresql"
    assert conn_max_age == "0"  # persistent connections leak under ASGI: psycopg's pool instead
    assert max_connections == "2000"  # redis-py's default async pool of 100 is far too small
    # A Redis that stops answering times out (above the layer's 5 s blocking receive) everywhere
    # the app talks to it, instead of holding a socket or a request forever.
    assert [float(t) for t in timeouts] == [15.0, 15.0, 15.0]


def test_pooled_postgresql_connections_prepare_the_statements_they_repeat(tmp_path):
    """The event path runs the same statements on every POST: on a pooled connection (as
    deployed) PostgreSQL gets them bound server-side and prepares one once it has run 5 times;
    without the pool (a connection per request) nothing would be reused, so nothing is prepared."""
    expr = (
        "settings.DATABASES['default'].get('OPTIONS', {}).get(k) for k in ('server_side_binding', 'prepare_threshold')"
    )
    env = {"DEBUG": "true", "POLO_VAR_DIR": str(tmp_path), "DATABASE_URL": "postgres://u@127.0.0.1:5432/polo"}
    pooled = _settings_in_subprocess(env, f"*({expr})")
    unpooled = _settings_in_subprocess({**env, "DATABASE_POOL": "false"}, f"*({expr})")
    assert pooled.returncode == 0 and unpooled.returncode == 0, pooled.stderr + unpooled.stderr
    assert pooled.stdout.split() == ["True", "5"]
    assert unpooled.stdout.split() == ["None", "None"]
