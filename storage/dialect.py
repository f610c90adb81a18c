"""The SQL that differs between SQLite and PostgreSQL lives here, and only here."""

from __future__ import annotations

from sqlalchemy import Connection

# An arbitrary constant shared by every replica: "paperbot migrations".
_MIGRATION_LOCK_ID = 0x7061706572


def lock_for_migrations(connection: Connection) -> None:
    """Serialise migrations between replicas starting at once (PostgreSQL).

    SQLite needs nothing: its write lock already serialises the migrating transactions.
    """
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")


def check_foreign_keys(connection: Connection) -> None:
    """After a migration on SQLite (run with foreign keys off): nothing may dangle."""
    if connection.dialect.name == "sqlite":
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise RuntimeError(f"migration left rows with broken foreign keys: {broken[:5]}")
