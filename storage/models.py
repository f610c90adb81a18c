"""The SQL schema as typed SQLAlchemy models. Migrations in `storage/migrations` create it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Date,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Stable constraint names, so migrations can refer to them on both databases.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def is_hand_written(name: str | None) -> bool:
    """Full-text tables and indexes are written by hand in migrations, not by the models."""
    return name is not None and ("_fts" in name or name.startswith("fts_"))


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware.

    SQLite has no time zone type, so without this values come back naive there and
    aware on PostgreSQL; this keeps both stores returning the same thing.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Document(Base):
    """A digest file as last seen on disk."""

    __tablename__ = "documents"

    id: Mapped[int] = mapped_column(primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True)
    content_hash: Mapped[str] = mapped_column(String(64))
    format: Mapped[str | None] = mapped_column(String(32))
    digest_date: Mapped[date | None] = mapped_column(Date)
    size_bytes: Mapped[int] = mapped_column(Integer)
    parser_version: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # "ok" | "failed" | "suspect"
    # "failed": why; "suspect": what its refused version would remove; "ok": the warnings
    # of a file loaded all but a part, one a line.
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    papers: Mapped[list[PaperDocument]] = relationship(
        back_populates="document", cascade="all, delete-orphan"
    )


class Paper(Base):
    __tablename__ = "papers"

    id: Mapped[int] = mapped_column(primary_key=True)
    # "arxiv:<id without version>" or "text:<hash>" of the text that identifies an entry
    # without an ID (storage/paper_keys.py); `name` or `title` is what readers see.
    key: Mapped[str] = mapped_column(String(64), unique=True)
    arxiv_id: Mapped[str | None] = mapped_column(String(32), unique=True)
    kind: Mapped[str] = mapped_column(String(16))  # "huggingface" | "deep_read" | "abstract_only"
    title: Mapped[str | None] = mapped_column(Text)
    name: Mapped[str | None] = mapped_column(String(200))
    subtitle: Mapped[str | None] = mapped_column(Text)
    authors: Mapped[list[str]] = mapped_column(JSON, default=list)
    categories: Mapped[list[str]] = mapped_column(JSON, default=list)
    pdf_url: Mapped[str | None] = mapped_column(Text)
    arxiv_url: Mapped[str | None] = mapped_column(Text)
    coolpaper_url: Mapped[str | None] = mapped_column(Text)
    published_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    source_updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    digest_date: Mapped[date | None] = mapped_column(Date, index=True)
    abstract_en: Mapped[str | None] = mapped_column(Text)
    abstract_zh: Mapped[str | None] = mapped_column(Text)
    llm_analysis: Mapped[str | None] = mapped_column(Text)
    positioning: Mapped[str | None] = mapped_column(Text)
    background: Mapped[str | None] = mapped_column(Text)
    mechanism: Mapped[str | None] = mapped_column(Text)
    experiments: Mapped[str | None] = mapped_column(Text)
    novelty: Mapped[str | None] = mapped_column(Text)
    soundness: Mapped[str | None] = mapped_column(Text)
    significance: Mapped[str | None] = mapped_column(Text)
    limitations: Mapped[str | None] = mapped_column(Text)
    follow_ups: Mapped[str | None] = mapped_column(Text)
    # Normalised forms for exact lookups and the search index (storage.search_text).
    title_key: Mapped[str | None] = mapped_column(Text, index=True)
    name_key: Mapped[str | None] = mapped_column(String(200), index=True)
    # The key of the English abstract (storage/paper_keys.py): an entry without an arXiv
    # ID (an abstract-only entry) finds by it the paper a listing stored under its arXiv key.
    abstract_key: Mapped[str | None] = mapped_column(String(64), index=True)
    search_head: Mapped[str] = mapped_column(Text, default="", server_default="")
    search_body: Mapped[str] = mapped_column(Text, default="", server_default="")
    first_ingested_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    claims: Mapped[list[Claim]] = relationship(
        back_populates="paper", cascade="all, delete-orphan", order_by="Claim.number"
    )
    documents: Mapped[list[PaperDocument]] = relationship(
        back_populates="paper", cascade="all, delete-orphan"
    )


class PaperDocument(Base):
    """Which digest files hold a paper: one paper, several sources."""

    __tablename__ = "paper_documents"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    position: Mapped[int] = mapped_column(Integer)  # order of the entry in the file

    paper: Mapped[Paper] = relationship(back_populates="documents")
    document: Mapped[Document] = relationship(back_populates="papers")


CLAIM_FROM_REVIEW = "review"  # a numbered claim of a deep read
CLAIM_FROM_ABSTRACT = "abstract"  # a result sentence of an abstract, not a reviewed claim


class Claim(Base):
    """A numbered claim of a deep read with its verbatim English evidence quote, or a
    sentence of an abstract that states a result (`source`), searchable the same way."""

    __tablename__ = "claims"
    __table_args__ = (UniqueConstraint("paper_id", "source", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(
        String(16), default=CLAIM_FROM_REVIEW, server_default=CLAIM_FROM_REVIEW
    )
    number: Mapped[int] = mapped_column(Integer)
    text_zh: Mapped[str] = mapped_column(Text)
    quote_en: Mapped[str] = mapped_column(Text)
    search_text: Mapped[str] = mapped_column(Text, default="", server_default="")

    paper: Mapped[Paper] = relationship(back_populates="claims")


VECTOR_OF_CLAIM = "claim"
VECTOR_OF_PAPER = "paper"


class ItemVector(Base):
    """The embedding of a claim or a paper by one model (storage/embedders.py), as float16
    bytes. `paper_id` (the paper itself, or the claim's paper) and `claim_id` (a claim's
    own id) cascade, so deleting a paper or replacing its claims removes their vectors.
    A vector is stale when it was made by another model or version, or, for a paper,
    before the paper's row last changed (`embedded_at` < `papers.updated_at`)."""

    __tablename__ = "item_vectors"
    __table_args__ = (
        CheckConstraint(
            "(kind = 'claim' AND claim_id = item_id)"
            " OR (kind = 'paper' AND claim_id IS NULL AND paper_id = item_id)",
            name="item_key",
        ),
    )

    kind: Mapped[str] = mapped_column(String(8), primary_key=True)  # "claim" | "paper"
    item_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    claim_id: Mapped[int | None] = mapped_column(
        ForeignKey("claims.id", ondelete="CASCADE"), index=True
    )
    model: Mapped[str] = mapped_column(String(200))
    model_version: Mapped[str] = mapped_column(String(100))
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    embedded_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class IngestRun(Base):
    __tablename__ = "ingest_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    trigger: Mapped[str] = mapped_column(String(16))  # "cli" | "slack" | "schedule"
    triggered_by: Mapped[str | None] = mapped_column(String(64))  # Slack user ID, for "slack"
    forced: Mapped[bool] = mapped_column(default=False)
    status: Mapped[str] = mapped_column(String(16))  # running | ok | partial | failed | interrupted
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    documents_new: Mapped[int] = mapped_column(Integer, default=0)
    documents_changed: Mapped[int] = mapped_column(Integer, default=0)
    documents_unchanged: Mapped[int] = mapped_column(Integer, default=0)
    documents_failed: Mapped[int] = mapped_column(Integer, default=0)
    papers_new: Mapped[int] = mapped_column(Integer, default=0)
    papers_updated: Mapped[int] = mapped_column(Integer, default=0)
    errors: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)


class LedgerPost(Base):
    """The ledger of summaries and subscription messages: one row per (owner, period),
    claimed before posting. The owner is whose papers these are: a channel's summary, or
    `sub:<subscriber>`. (The table and column keep their first names, `digest_posts` and
    `channel`: exports and replicas of every version read the same schema.)"""

    __tablename__ = "digest_posts"
    __table_args__ = (UniqueConstraint("channel", "period"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner: Mapped[str] = mapped_column("channel", String(64))
    # A scheduled firing as ISO time ("2026-12-02T09:00:00+00:00") or "manual:<id>".
    period: Mapped[str] = mapped_column(String(64))
    # claimed (being sent) | posted (Slack accepted its first message) | failed
    status: Mapped[str] = mapped_column(String(16))
    slack_ts: Mapped[str | None] = mapped_column(String(32))
    # The conversation its first message went to (a user's direct message has its own id):
    # missing thread replies are sent there later.
    slack_channel: Mapped[str | None] = mapped_column(String(32))
    # Thread replies not sent yet, as Slack payloads; None when every reply went out.
    pending_replies: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True))
    # Set while a process sends this post's messages; one older than IN_FLIGHT died.
    sending_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)  # sendings begun (status shows it)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    papers: Mapped[list[LedgerPaper]] = relationship(
        back_populates="post", cascade="all, delete-orphan"
    )


class LedgerPaper(Base):
    """Which papers a post covered; (owner, paper) is unique, so no paper is sent twice."""

    __tablename__ = "digest_post_papers"
    __table_args__ = (UniqueConstraint("channel", "paper_id"),)

    post_id: Mapped[int] = mapped_column(
        ForeignKey("digest_posts.id", ondelete="CASCADE"), primary_key=True
    )
    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column("channel", String(64))

    post: Mapped[LedgerPost] = relationship(back_populates="papers")


class Subscription(Base):
    """Words a user or a channel follows: new papers matching them are sent once a day.

    `subscriber` is a Slack user ID (a direct message) or channel ID. Its deliveries use
    the summary ledger under the name `sub:<subscriber>`, so no paper is sent twice.
    """

    __tablename__ = "subscriptions"
    __table_args__ = (UniqueConstraint("subscriber", "words"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    subscriber: Mapped[str] = mapped_column(String(32), index=True)
    words: Mapped[str] = mapped_column(String(200))
    # Local time of day ("08:30") a channel gets its post; None: the default time.
    post_time: Mapped[str | None] = mapped_column(String(5))
    created_by: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The newest paper id matched against the subscriber's words (whether or not it
    # matched): later runs look only at newer papers. The same on all of a subscriber's
    # rows; None on a new subscriber's, who starts from `created_at`.
    matched_through: Mapped[int | None] = mapped_column(Integer)


class SavedPaper(Base):
    """A paper a user saved to read later. The paper is named by its key, with its label
    and arXiv ID as they were when saved (no foreign key): a paper that later leaves the
    store still shows in the list, said so, and can be removed."""

    __tablename__ = "saved_papers"
    __table_args__ = (UniqueConstraint("user_id", "paper_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), index=True)
    paper_key: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(Text)
    arxiv_id: Mapped[str | None] = mapped_column(String(32))
    saved_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
