"""Reference lists and in-text citations of scientific papers: pure Python, no Django, no database.

entries.py finds, splits and parses a document's reference list; markers.py finds in-text citations in chunk
text and resolves them to entries; jats.py reads the publisher XML used as ground truth by the evaluation app
(apps/evaluation/reference_entries.py and reference_links.py).
"""
