"""glossary, cardgame and opinions tables

Revision ID: e7a41c9b2d05
Revises: e5a9c3d17b20
Create Date: 2026-11-23 01:00:00.000000

Tables of three services: the glossary's terms, comparisons and how-tos; the cardgame guide's
chapters, terms, FAQ and ban lists; opinions' topics, outside discussion threads and site posts.
"""

import sqlalchemy as sa
from alembic import op

revision = "e7a41c9b2d05"
down_revision = "e5a9c3d17b20"
branch_labels = None
depends_on = None


def _provenance() -> list[sa.Column]:
    return [
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "glossary_term",
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("name_zh", sa.String(length=120), nullable=False),
        sa.Column("name_en", sa.String(length=200), nullable=False),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("category", sa.String(length=40), nullable=False),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.Column("related", sa.JSON(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_glossary_term")),
    )
    op.create_index(op.f("ix_glossary_term_category"), "glossary_term", ["category"], unique=False)
    op.create_table(
        "glossary_comparison",
        sa.Column("id", sa.String(length=120), nullable=False),
        sa.Column("a", sa.String(length=80), nullable=False),
        sa.Column("b", sa.String(length=80), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("differences", sa.JSON(), nullable=False),
        sa.Column("choose_a", sa.Text(), nullable=False),
        sa.Column("choose_b", sa.Text(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_glossary_comparison")),
    )
    op.create_table(
        "glossary_howto",
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("terms", sa.JSON(), nullable=False),
        sa.Column("steps", sa.JSON(), nullable=False),
        sa.Column("code", sa.JSON(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_glossary_howto")),
    )

    op.create_table(
        "cardgame_chapter",
        sa.Column("slug", sa.String(length=60), nullable=False),
        sa.Column("order", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("slug", name=op.f("pk_cardgame_chapter")),
    )
    op.create_table(
        "cardgame_term",
        sa.Column("term", sa.String(length=80), nullable=False),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.Column("chapter", sa.String(length=60), nullable=False),
        sa.PrimaryKeyConstraint("term", name=op.f("pk_cardgame_term")),
    )
    op.create_table(
        "cardgame_faq",
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("chapter", sa.String(length=60), nullable=False),
        sa.Column("rule", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cardgame_faq")),
    )
    op.create_table(
        "cardgame_banlist",
        sa.Column("effective", sa.Date(), nullable=False),
        sa.Column("format", sa.String(length=20), nullable=False),
        sa.Column("forbidden", sa.JSON(), nullable=False),
        sa.Column("limited", sa.JSON(), nullable=False),
        sa.Column("semi_limited", sa.JSON(), nullable=False),
        sa.Column("released", sa.JSON(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("effective", "format", name=op.f("pk_cardgame_banlist")),
    )

    op.create_table(
        "opinions_topic",
        sa.Column("slug", sa.String(length=60), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("name_zh", sa.String(length=120), nullable=False),
        sa.Column("keywords", sa.JSON(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("slug", name=op.f("pk_opinions_topic")),
    )
    op.create_table(
        "opinions_thread",
        sa.Column("id", sa.String(length=120), nullable=False),
        sa.Column("community", sa.String(length=20), nullable=False),
        sa.Column("site", sa.String(length=120), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("created_note", sa.Text(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("comments", sa.Integer(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("stance", sa.String(length=20), nullable=False),
        sa.Column("pros", sa.JSON(), nullable=False),
        sa.Column("cons", sa.JSON(), nullable=False),
        sa.Column("topics", sa.JSON(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_opinions_thread")),
    )
    op.create_table(
        "opinions_post",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=60), nullable=False),
        sa.Column("author", sa.String(length=80), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("products", sa.JSON(), nullable=False),
        sa.Column("stance", sa.String(length=20), nullable=False),
        sa.Column("human_written", sa.Boolean(), nullable=False),
        sa.Column("published", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_opinions_post")),
    )
    op.create_index(op.f("ix_opinions_post_topic"), "opinions_post", ["topic"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_opinions_post_topic"), table_name="opinions_post")
    op.drop_table("opinions_post")
    op.drop_table("opinions_thread")
    op.drop_table("opinions_topic")
    op.drop_table("cardgame_banlist")
    op.drop_table("cardgame_faq")
    op.drop_table("cardgame_term")
    op.drop_table("cardgame_chapter")
    op.drop_table("glossary_howto")
    op.drop_table("glossary_comparison")
    op.drop_index(op.f("ix_glossary_term_category"), table_name="glossary_term")
    op.drop_table("glossary_term")
