"""Does the answer time tell a hidden object from a missing one? 250 interleaved pairs against a real gunicorn.

Run (needs PostgreSQL and Redis; a database of its own, which the bench migrates and fills):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/portal_access_bench REDIS_URL=redis://127.0.0.1:6379/6 \\
    STATIC_ROOT=/tmp/bench-static SECRET_KEY=... ALLOWED_HOSTS=127.0.0.1 PORTAL_HTTPS=false \\
    python bench/access/run.py [--pairs 250] [--out results.json]

What is timed: one person (a member of another collection only) asks for a document, and for a collection, that
exist but are not theirs ("hidden") and for ones that do not exist ("missing"), over one keep-alive connection
to gunicorn (one worker, two threads) on loopback; the two requests of a pair go in random order, pairs follow each
other. As a control, two different missing ids are timed the same way: their difference is what noise alone
gives. Reported: the median of each, and the median and a bootstrap 95% interval of the per-pair difference
(hidden - missing). The API calls go out with the throttle off (PORTAL_API_RATE=off in gunicorn's environment).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.core.management import call_command  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from apps.documents.models import Collection, Document, DocumentStatus, Membership  # noqa: E402

MISSING = 10**9
LOG = Path(os.environ.get("TMPDIR", "/tmp")) / "bench-access-gunicorn.log"


def setup() -> dict:
    """Two collections of 200 documents; the prober is a member of the first only."""
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # pages need the manifest (STATIC_ROOT)
    User = get_user_model()
    prober, _ = User.objects.get_or_create(username="bench-prober")
    mine, _ = Collection.objects.get_or_create(slug="bench-mine", defaults={"name": "Mine"})
    theirs, _ = Collection.objects.get_or_create(slug="bench-theirs", defaults={"name": "Theirs"})
    Membership.objects.get_or_create(user=prober, collection=mine, defaults={"role": "viewer"})
    for collection in (mine, theirs):
        have = collection.documents.count()
        Document.objects.bulk_create(
            Document(
                collection=collection,
                original_name=f"doc-{n}.txt",
                doc_type="txt",
                size=10,
                sha256=f"{collection.pk:08d}{n:056d}",
                status=DocumentStatus.READY,
                title=f"Document {n}",
            )
            for n in range(have, 200)
        )
    session = SessionStore()
    session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(prober.pk), "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = prober.get_session_auth_hash()
    session.create()
    return {
        "token": Token.objects.get_or_create(user=prober)[0].key,
        "session": session.session_key,
        "hidden_document": theirs.documents.order_by("pk").first().pk,
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(port: int) -> subprocess.Popen:
    env = os.environ | {"PORTAL_WARM_UP": "false", "PORTAL_API_RATE": "off", "PORTAL_LOGIN_THROTTLE": "false"}
    command = [sys.executable, "-m", "gunicorn", "portal.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1", "--threads", "2"]
    # Its log goes to a file: every 404 is logged, and a pipe nobody reads would fill and stall the server.
    log = open(LOG, "wb")  # noqa: SIM115 - open for the server's lifetime
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"gunicorn did not start: {LOG.read_text()[-2000:]}")


def timed(connection: http.client.HTTPConnection, path: str, headers: dict) -> tuple[float, int, bytes]:
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    return (time.perf_counter() - started) * 1000.0, response.status, body


def pairs(connection, a: str, b: str, headers: dict, count: int) -> dict:
    """`count` interleaved pairs (random order within each); the times, and that both always answer alike."""
    times_a, times_b, answers = [], [], set()
    for _ in range(count):
        order = [(a, times_a), (b, times_b)]
        random.shuffle(order)
        for path, times in order:
            ms, status, body = timed(connection, path, headers)
            times.append(ms)
            answers.add((path == a, status, body))
    differences = [x - y for x, y in zip(times_a, times_b, strict=True)]
    same = len({(status, body) for _first, status, body in answers}) == 1
    return {
        "median_a_ms": round(statistics.median(times_a), 3),
        "median_b_ms": round(statistics.median(times_b), 3),
        "median_difference_ms": round(statistics.median(differences), 3),
        "difference_95ci_ms": bootstrap(differences),
        "same_answer": same,
    }


def bootstrap(differences: list[float], rounds: int = 2000) -> list[float]:
    rng = random.Random(14)
    means = sorted(statistics.fmean(rng.choices(differences, k=len(differences))) for _ in range(rounds))
    return [round(means[int(rounds * 0.025)], 3), round(means[int(rounds * 0.975)], 3)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=250)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    world = setup()
    port = free_port()
    server = start_gunicorn(port)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        api = {"Authorization": f"Token {world['token']}", "Host": "127.0.0.1"}
        page = {"Cookie": f"sessionid={world['session']}", "Host": "127.0.0.1"}
        hidden = world["hidden_document"]
        cases = {
            "document (API)": (f"/api/v1/documents/{hidden}/", f"/api/v1/documents/{MISSING}/", api),
            "document (page)": (f"/documents/{hidden}/", f"/documents/{MISSING}/", page),
            "collection (API)": (
                "/api/v1/documents/?collection=bench-theirs",
                "/api/v1/documents/?collection=nope",
                api,
            ),
            "collection (page)": ("/c/bench-theirs/", "/c/no-such-collection/", page),
            "control: two missing documents": (
                f"/api/v1/documents/{MISSING}/",
                f"/api/v1/documents/{MISSING + 1}/",
                api,
            ),
        }
        for path, _other, headers in cases.values():  # warm up: connections, templates, query plans
            for _ in range(20):
                timed(connection, path, headers)
        results = {name: pairs(connection, a, b, headers, args.pairs) for name, (a, b, headers) in cases.items()}
        connection.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    print(f"{'case':34} {'hidden':>9} {'missing':>9} {'median Δ':>9}  95% CI of mean Δ   same answer")
    for name, r in results.items():
        ci = r["difference_95ci_ms"]
        print(
            f"{name:34} {r['median_a_ms']:>7.2f}ms {r['median_b_ms']:>7.2f}ms {r['median_difference_ms']:>+7.2f}ms"
            f"  [{ci[0]:+.2f}, {ci[1]:+.2f}] ms   {r['same_answer']}"
        )
    if args.out:
        args.out.write_text(json.dumps({"pairs": args.pairs, "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
