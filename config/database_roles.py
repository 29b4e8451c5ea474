"""The two PostgreSQL roles the app runs with (issue 13, tamper-evidence).

- The **owner** role owns the database and every table, trigger and function
  in it, and runs the migrations. Only it (or a superuser) can truncate,
  alter, disable or drop a trigger, or replace a guard function.
- The **app** role is what the web processes and workers connect as
  (``DATABASE_URL``): it reads and writes rows, nothing more. No TRUNCATE, no
  DDL, no trigger rights, not the owner of anything; on the audit trail it may
  only add entries and read them (``APPEND_ONLY``). Signed revisions, their
  hazards, measures and declarations stay writable rows, as drafts must be:
  the guard triggers, which this role can neither disable nor replace, refuse
  any change to what is signed.

``create_roles`` and ``hand_over`` run once, as a superuser; ``grant_app``
after every migration, as the owner (``manage.py
db_roles``, used by ``make migrate``, ``.ci/run`` and the README's production
steps).
"""

from __future__ import annotations

from dataclasses import dataclass

import dj_database_url
from psycopg import sql

# Tables the app role may only read and add rows to.
APPEND_ONLY = ("compliance_auditentry",)
# Tables the app role may only read: the migrations are the owner's.
READ_ONLY = ("django_migrations",)
ROW_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"


@dataclass(frozen=True)
class Role:
    name: str
    password: str = ""

    @classmethod
    def from_url(cls, url: str) -> Role:
        parsed = dj_database_url.parse(url)
        if not parsed.get("USER"):
            raise ValueError(f"no user in the database URL {url.split('@')[-1]!r}")
        return cls(parsed["USER"], parsed.get("PASSWORD") or "")


def _run(cursor, statement: sql.Composable) -> str:
    text = statement.as_string(cursor.connection)
    cursor.execute(text)
    return text


def _exists(cursor, query: str, *params) -> bool:
    cursor.execute(query, params)
    return cursor.fetchone() is not None


def _ensure_role(cursor, role: Role, attributes: str) -> list[str]:
    done = []
    ident = sql.Identifier(role.name)
    if not _exists(cursor, "SELECT 1 FROM pg_roles WHERE rolname = %s", role.name):
        done.append(_run(cursor, sql.SQL("CREATE ROLE {} LOGIN").format(ident)))
    done.append(_run(cursor, sql.SQL("ALTER ROLE {} " + attributes).format(ident)))
    if role.password:
        _run(
            cursor,
            sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                ident, sql.Literal(role.password)
            ),
        )
        done.append(f"ALTER ROLE {role.name} PASSWORD '…'")
    return done


def create_database(nodb_cursor, *, database: str, owner: Role) -> list[str]:
    """The database, owned by ``owner`` (made if missing). Needs a cursor on
    the server's maintenance database: CREATE DATABASE runs outside one."""
    ident = sql.Identifier(database)
    if _exists(nodb_cursor, "SELECT 1 FROM pg_database WHERE datname = %s", database):
        statement = sql.SQL("ALTER DATABASE {} OWNER TO {}")
    else:
        statement = sql.SQL("CREATE DATABASE {} OWNER {}")
    return [_run(nodb_cursor, statement.format(ident, sql.Identifier(owner.name)))]


def create_roles(
    nodb_cursor, *, database: str, owner: Role, app: Role, for_tests: bool
) -> list[str]:
    """Both roles (made if missing) and the database, owned by ``owner``; run
    as a superuser, on the server's maintenance database (CREATE DATABASE runs
    outside the database itself). Then ``hand_over``, on the database.

    ``for_tests``: the owner may also create databases (the test suite makes
    its own) and act as the app role (the tests that prove what it may not do).
    """
    if owner.name == app.name:
        raise ValueError("the owner and the app must be two roles")
    done = _ensure_role(
        nodb_cursor,
        owner,
        "LOGIN NOSUPERUSER NOCREATEROLE NOREPLICATION NOBYPASSRLS "
        + ("CREATEDB" if for_tests else "NOCREATEDB"),
    )
    done += _ensure_role(
        nodb_cursor,
        app,
        "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS",
    )
    # The app must never be able to act as the owner.
    done.append(
        _run(
            nodb_cursor,
            sql.SQL("REVOKE {} FROM {}").format(
                sql.Identifier(owner.name), sql.Identifier(app.name)
            ),
        )
    )
    if for_tests:
        done.append(
            _run(
                nodb_cursor,
                sql.SQL("GRANT {} TO {}").format(
                    sql.Identifier(app.name), sql.Identifier(owner.name)
                ),
            )
        )
    return done + create_database(nodb_cursor, database=database, owner=owner)


def hand_over(cursor, *, database: str, owner: Role, app: Role) -> list[str]:
    """Everything in the database's ``public`` schema to the owner, and the
    right to connect to the app; run as a superuser, on the database."""
    return [
        *_own_everything(cursor, owner),
        _run(
            cursor,
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(
                sql.Identifier(database), sql.Identifier(app.name)
            ),
        ),
    ]


def _own_everything(cursor, owner: Role) -> list[str]:
    """Hand the ``public`` schema's tables, views, free-standing sequences and
    functions to the owner (those an earlier setup made as a superuser);
    extensions' objects stay the extension's."""
    ident = sql.Identifier(owner.name)
    done = [_run(cursor, sql.SQL("ALTER SCHEMA public OWNER TO {}").format(ident))]
    cursor.execute(
        """
        SELECT c.relname, c.relkind FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND pg_get_userbyid(c.relowner) <> %s
          AND NOT EXISTS (
            SELECT 1 FROM pg_depend d
            WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
              AND d.deptype IN ('a', 'i', 'e'))
        ORDER BY c.relkind, c.relname
        """,
        [owner.name],
    )
    kinds = {"v": "VIEW", "m": "MATERIALIZED VIEW", "S": "SEQUENCE"}
    for name, kind in cursor.fetchall():
        done.append(
            _run(
                cursor,
                sql.SQL("ALTER {} {} OWNER TO {}").format(
                    sql.SQL(kinds.get(kind, "TABLE")), sql.Identifier(name), ident
                ),
            )
        )
    cursor.execute(
        """
        SELECT p.proname, pg_get_function_identity_arguments(p.oid) FROM pg_proc p
        JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> %s
          AND NOT EXISTS (
            SELECT 1 FROM pg_depend d
            WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
              AND d.deptype = 'e')
        ORDER BY p.proname
        """,
        [owner.name],
    )
    for name, arguments in cursor.fetchall():
        done.append(
            _run(
                cursor,
                sql.SQL("ALTER FUNCTION {}({}) OWNER TO {}").format(
                    sql.Identifier(name), sql.SQL(arguments), ident
                ),
            )
        )
    return done


def grant_app(cursor, *, app: str) -> list[str]:
    """The app role's rights on every table and sequence as they are now, and
    on those later migrations make; run as the owner after migrating."""
    cursor.execute(
        "SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = %s",
        [app],
    )
    found = cursor.fetchone()
    if found is None:
        raise ValueError(f"there is no role {app!r}: run `db_roles create` first")
    if any(found):
        raise ValueError(
            f"the app role {app!r} may not be a superuser, create roles or databases"
        )
    cursor.execute("SELECT current_user")
    if cursor.fetchone()[0] == app:
        raise ValueError("grant as the owner: the app cannot grant itself rights")
    role = sql.Identifier(app)

    def revoke(privileges: str, names: list[str]) -> list[sql.Composable]:
        if not names:  # a database not migrated yet
            return []
        listed = sql.SQL(", ").join(sql.Identifier(name) for name in names)
        return [sql.SQL("REVOKE " + privileges + " ON {} FROM {}").format(listed, role)]

    statements = [
        sql.SQL("REVOKE CREATE ON SCHEMA public FROM PUBLIC"),
        sql.SQL("REVOKE CREATE ON SCHEMA public FROM {}").format(role),
        sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(role),
        sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {}").format(role),
        sql.SQL(
            "GRANT " + ROW_PRIVILEGES + " ON ALL TABLES IN SCHEMA public TO {}"
        ).format(role),
        *revoke("UPDATE, DELETE", _present(cursor, APPEND_ONLY)),
        *revoke("INSERT, UPDATE, DELETE", _present(cursor, READ_ONLY)),
        sql.SQL("REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {}").format(role),
        sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}").format(
            role
        ),
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT "
            + ROW_PRIVILEGES
            + " ON TABLES TO {}"
        ).format(role),
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
            "GRANT USAGE, SELECT ON SEQUENCES TO {}"
        ).format(role),
    ]
    return [_run(cursor, statement) for statement in statements]


def _present(cursor, names: tuple[str, ...]) -> list[str]:
    cursor.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
        "AND tablename = ANY(%s) ORDER BY tablename",
        [list(names)],
    )
    return [row[0] for row in cursor.fetchall()]
