"""The corpus's statements on disk (SQLite), so memory does not grow with the corpus text.

Statement ids are dense integers from 0, the same as the rows of the vector
index. Facts are not stored: they are re-derived from the sentence (cached).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterator

from groundwatch.audit.statements import Statement

_SCHEMA = """
CREATE TABLE statements (id INTEGER PRIMARY KEY, doc_id TEXT, idx INTEGER, start INTEGER, stop INTEGER, text TEXT);
CREATE TABLE documents (doc_id TEXT PRIMARY KEY, title TEXT, updated_at TEXT, source TEXT);
CREATE TABLE facts (statement_id INTEGER, doc_id TEXT, key TEXT);
CREATE INDEX facts_key ON facts (key);
CREATE INDEX statements_doc ON statements (doc_id);
"""


class StatementStore:
    def __init__(self, path: str | Path):
        self._db = sqlite3.connect(str(path))
        self._db.executescript(_SCHEMA)
        self.count = 0

    def close(self) -> None:
        self._db.close()

    def add_document(self, doc_id: str, title: str, updated_at: str | None, source: str | None) -> None:
        self._db.execute("INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?)", (doc_id, title, updated_at, source))

    def add(self, statements: list[Statement]) -> list[int]:
        ids = list(range(self.count, self.count + len(statements)))
        self._db.executemany("INSERT INTO statements VALUES (?, ?, ?, ?, ?, ?)",
                             [(i, s.doc_id, s.index, s.start, s.end, s.text) for i, s in zip(ids, statements)])
        self._db.executemany("INSERT INTO facts VALUES (?, ?, ?)",
                             [(i, s.doc_id, f.key) for i, s in zip(ids, statements) for f in s.facts])
        self.count += len(statements)
        return ids

    def commit(self) -> None:
        self._db.commit()

    def get(self, ids: list[int]) -> dict[int, Statement]:
        out: dict[int, Statement] = {}
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            rows = self._db.execute(f"SELECT * FROM statements WHERE id IN ({','.join('?' * len(part))})", part)
            out.update({r[0]: Statement(r[1], r[2], r[3], r[4], r[5]) for r in rows})
        return out

    def of_document(self, doc_id: str) -> list[Statement]:
        rows = self._db.execute("SELECT * FROM statements WHERE doc_id = ? ORDER BY id", (doc_id,))
        return [Statement(r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def document(self, doc_id: str) -> dict:
        row = self._db.execute("SELECT title, updated_at, source FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
        return {"title": row[0], "updated_at": row[1], "source": row[2]} if row else {}

    def key_groups(self, max_size: int) -> Iterator[tuple[str, list[int]]]:
        """Statement ids sharing a fact key, for keys seen in more than one statement (capped per key)."""
        keys = self._db.execute("SELECT key FROM facts GROUP BY key HAVING COUNT(DISTINCT statement_id) > 1")
        for (key,) in keys.fetchall():
            yield key, self.with_key(key, max_size)

    def with_key(self, key: str, limit: int = 50) -> list[int]:
        rows = self._db.execute("SELECT DISTINCT statement_id FROM facts WHERE key = ? ORDER BY statement_id LIMIT ?",
                                (key, limit))
        return [r[0] for r in rows]
