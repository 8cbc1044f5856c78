"""The small library of the answer and MCP tests: (file name, title, text) of each document."""

from __future__ import annotations

PAPERS = [
    (
        "lions.txt",
        "Asiatic lions",
        "The Asiatic lion survives only in the Gir forest of Gujarat in India. "
        "Its population grew to about 600 animals by 2017 after decades of protection.",
    ),
    (
        "wheat.txt",
        "Wheat volatiles",
        "Fusarium poae infects durum wheat kernels in the field. "
        "Infected kernels released more volatile alcohols than healthy kernels.",
    ),
    ("glacier.txt", "Glaciers", "Glaciers retreat as mountain temperatures rise, exposing bare rock and moraine."),
    ("panda.txt", "熊猫", "大熊猫主要生活在四川的竹林中，以竹子为食。"),
]
