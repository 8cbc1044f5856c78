"""The checks behind GET /healthz: database, broker, workers, models. Each is cheap (one query, one Redis round
trip, a look at the model's files) and says only whether its part works: no addresses, no error texts, which could
carry host names or paths."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import connection

from apps.retrieval.embedding import encoder
from portal import heartbeat


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # refused, timed out, authentication: all "down" for a load balancer
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True}


def check_broker() -> dict:
    try:
        heartbeat.redis_client().ping()
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True}


def check_workers() -> dict:
    try:
        alive = heartbeat.alive_workers()
    except Exception as exc:
        return {"ok": False, "alive": None, "error": type(exc).__name__}
    return {"ok": alive > 0, "alive": alive, "stale_after_s": heartbeat.HEARTBEAT_STALE}


def check_models() -> dict:
    """Whether the embedding model could be loaded: its files are present (it is not loaded here, which takes
    seconds and half a gigabyte), or it is already loaded in this process."""
    name = settings.PORTAL_EMBEDDING_MODEL
    loaded = name in encoder._cache
    if name == encoder.DEFAULT_MODEL:
        folder = encoder.default_model_path()
        present = encoder.read_manifest(folder) is not None and (folder / "model.safetensors").is_file()
    elif Path(name).expanduser().is_dir():
        folder = Path(name).expanduser()
        present = (folder / "config.json").is_file() or (folder / "modules.json").is_file()
    else:  # a model hub name: present when the hub's cache holds it (workers need no network then)
        present = _in_hub_cache(name)
    label = Path(name).name  # a local path would tell where the files are: the folder's name is enough
    return {"ok": loaded or present, "embedding": {"name": label, "files_present": present, "loaded": loaded}}


def _in_hub_cache(name: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(name, "config.json"), str)
    except Exception:
        return False


CHECKS = {"database": check_database, "broker": check_broker, "workers": check_workers, "models": check_models}


def health_report() -> tuple[bool, dict]:
    """(all well, the JSON body): {"status": "ok"|"failing", "failing": [...], "checks": {...}}."""
    checks = {name: check() for name, check in CHECKS.items()}
    failing = [name for name, result in checks.items() if not result["ok"]]
    return not failing, {"status": "failing" if failing else "ok", "failing": failing, "checks": checks}
